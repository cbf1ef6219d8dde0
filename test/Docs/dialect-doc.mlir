// docs/dialect.md is generated from the ODS and must be current: rerun
// scripts/gen-dialect-doc.sh after changing a .td file.
// RUN: %S/../../scripts/gen-dialect-doc.sh - | diff %S/../../docs/dialect.md -
