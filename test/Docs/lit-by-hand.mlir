// The README runs lit by hand after a build: without DIST_PLUGIN (which
// `cargo test` sets) the plugin tests find the build's plugin, and where
// there is none they say why they are unsupported. (One test: the others
// write lit temporaries that the outer run of the suite writes too.)
// RUN: env -u DIST_PLUGIN -u DIST_DIALECT_PLUGIN DIST_BIN_DIR=%dist_bin_dir %lit -v %S/../Plugin/mlir-opt-plugin.mlir 2>&1 | FileCheck %s --check-prefix=FOUND
// FOUND: PASS: dist-mlir :: Plugin/mlir-opt-plugin.mlir
// RUN: env -u DIST_PLUGIN -u DIST_DIALECT_PLUGIN DIST_BIN_DIR=%t.nowhere %lit -v %S/../Plugin/mlir-opt-plugin.mlir 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: note: Plugin/ tests are unsupported: no plugin at {{.*}}nowhere{{/|\\}}libdist_mlir_plugin.so or no dialect plugin under {{.*}}nowhere{{/|\\}}build: build the workspace (cargo build) or set DIST_PLUGIN and DIST_DIALECT_PLUGIN
// NONE: {{UNSUPPORTED}}: dist-mlir :: Plugin/mlir-opt-plugin.mlir
