// The README runs lit by hand after a build: without DIST_PLUGIN (which
// `cargo test` sets) the plugin tests find the build's plugin, and where
// there is none they say why they are unsupported.
// RUN: env -u DIST_PLUGIN DIST_BIN_DIR=%dist_bin_dir %lit -v %S/../Plugin 2>&1 | FileCheck %s --check-prefix=FOUND
// FOUND: PASS: dist-mlir :: Plugin/mlir-opt-plugin.mlir
// RUN: env -u DIST_PLUGIN DIST_BIN_DIR=%t.nowhere %lit -v %S/../Plugin 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: note: Plugin/ tests are unsupported: no dialect plugin at DIST_PLUGIN ('') nor under {{.*}}nowhere{{/|\\}}build: build the workspace (cargo build) or set DIST_PLUGIN
// NONE: {{UNSUPPORTED}}: dist-mlir :: Plugin/mlir-opt-plugin.mlir
