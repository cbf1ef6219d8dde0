// docs/passes.md is generated from the pass registry and must be current:
// rerun `dist-opt --help-passes > docs/passes.md` after changing a pass's
// summary, options or description, or a pipeline.
// RUN: dist-opt --help-passes | diff %S/../../docs/passes.md -
