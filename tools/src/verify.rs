//! `--verify-diagnostics`: `// expected-error {{text}}` comments, as in
//! MLIR's SourceMgrDiagnosticVerifierHandler.
//!
//! A designator may follow the kind: `@+N`/`@-N` (relative line), `@above`
//! (previous line), `@below` (next line), after optional spaces. The text
//! runs to the last `}}` of the line and matches as a substring.
//! Diagnostics that match no expectation and expectations that match no
//! diagnostic are both errors.

use crate::diagnostics::{Diag, Severity};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub severity: Severity,
    /// Line (1-based, in the whole file) the diagnostic must be on.
    pub line: u32,
    /// Where the comment is: line and column (1-based, in the whole file).
    pub at: (u32, u32),
    pub text: String,
}

/// A malformed expectation comment, reported at its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadExpectation {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

const KINDS: [(&str, Severity); 4] = [
    ("expected-error", Severity::Error),
    ("expected-warning", Severity::Warning),
    ("expected-remark", Severity::Remark),
    ("expected-note", Severity::Note),
];

/// Collects every expectation in `chunk`, whose first line is line
/// `first_line` of the file.
pub fn expectations(chunk: &str, first_line: u32) -> Result<Vec<Expected>, BadExpectation> {
    let mut found = Vec::new();
    for (index, line) in chunk.lines().enumerate() {
        let line_no = first_line + index as u32;
        let mut rest = line;
        while let Some(pos) = rest.find("expected-") {
            let start = line.len() - rest.len() + pos;
            let tail = &line[start..];
            rest = &line[start + "expected-".len()..];
            let Some(&(kind, severity)) = KINDS.iter().find(|(k, _)| tail.starts_with(k)) else {
                continue;
            };
            let bad = |message: String| BadExpectation {
                line: line_no,
                column: start as u32 + 1,
                message,
            };
            let mut after = &tail[kind.len()..];
            if !after.starts_with(|c: char| c == '@' || c.is_whitespace()) {
                continue; // e.g. `expected-errors`: not an expectation
            }
            // As upstream: spaces may precede the designator.
            if after.trim_start().starts_with('@') {
                after = after.trim_start();
            }
            let mut target = line_no;
            if let Some(designator) = after.strip_prefix('@') {
                let end = designator.find(char::is_whitespace).unwrap_or(designator.len());
                let (spec, remaining) = designator.split_at(end);
                target = resolve(spec, line_no).ok_or_else(|| bad(format!("invalid line designator '@{spec}'")))?;
                after = remaining;
            }
            let after = after.trim_start();
            let text = after
                .strip_prefix("{{")
                // Up to the last `}}` of the line, as upstream: messages may
                // hold braces.
                .and_then(|t| t.rfind("}}").map(|end| &t[..end]))
                .ok_or_else(|| bad(format!("{kind} needs its message in {{{{...}}}}")))?;
            found.push(Expected {
                severity,
                line: target,
                at: (line_no, start as u32 + 1),
                text: text.to_owned(),
            });
        }
    }
    Ok(found)
}

fn resolve(spec: &str, line: u32) -> Option<u32> {
    match spec {
        "above" => line.checked_sub(1),
        "below" => Some(line + 1),
        _ => {
            let (sign, digits) = spec.split_at(1);
            let n: u32 = digits.parse().ok()?;
            match sign {
                "+" => Some(line + n),
                "-" => line.checked_sub(n),
                _ => None,
            }
            .filter(|&l| l >= 1)
        }
    }
}

/// Matches `diagnostics` (notes included) against `expected`, the
/// expectations of `file`: a diagnostic located in another file matches
/// none. Returns the failures as messages with their locations.
pub fn check(file: &str, diagnostics: &[Diag], expected: &[Expected]) -> Vec<String> {
    let mut matched = vec![false; expected.len()];
    let mut failures = Vec::new();
    let mut all = Vec::new();
    for d in diagnostics {
        all.push(d);
        all.extend(d.notes.iter());
    }
    for d in all {
        let line = d
            .location
            .as_ref()
            .filter(|(located, _, _)| located == file)
            .map(|(_, line, _)| *line);
        let hit = expected.iter().enumerate().position(|(i, e)| {
            !matched[i] && Some(e.line) == line && e.severity == d.severity && d.message.contains(&e.text)
        });
        match hit {
            Some(i) => matched[i] = true,
            None => {
                let mut shown = d.clone();
                shown.notes.clear();
                failures.push(format!(
                    "{shown}\n  ^ unexpected {} (no expected-{} matches it)",
                    d.severity.as_str(),
                    d.severity.as_str()
                ))
            }
        }
    }
    for (e, _) in expected.iter().zip(&matched).filter(|(_, m)| !**m) {
        failures.push(format!(
            "{file}:{}:{}: error: expected {} \"{}\" was not produced",
            e.at.0,
            e.at.1,
            e.severity.as_str(),
            e.text
        ));
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(severity: Severity, line: u32, message: &str) -> Diag {
        Diag {
            severity,
            location: Some(("f".into(), line, 1)),
            message: message.into(),
            notes: vec![],
        }
    }

    #[test]
    fn parses_designators() {
        let src = "a // expected-error {{one}}\n// expected-error@+1 {{two}}\nb\n// expected-warning@above {{three}}\n// expected-note@below {{four}}\n// expected-remark@-4 {{five}}";
        let found = expectations(src, 1).unwrap();
        let lines: Vec<_> = found.iter().map(|e| (e.line, e.severity, e.text.as_str())).collect();
        assert_eq!(
            lines,
            vec![
                (1, Severity::Error, "one"),
                (3, Severity::Error, "two"),
                (3, Severity::Warning, "three"),
                (6, Severity::Note, "four"),
                (2, Severity::Remark, "five"),
            ]
        );
        assert!(expectations("// expected-error@x {{bad}}", 1).is_err());
        assert!(expectations("// expected-error no braces", 1).is_err());
        assert!(expectations("// expected-error@-5 {{before the start}}", 1).is_err());
    }

    #[test]
    fn designators_after_spaces_and_braces_in_messages() {
        let src = "// expected-error @below {{over {\"tp\"}}}\nx\n// expected-errors {{not one}}";
        let found = expectations(src, 1).unwrap();
        let lines: Vec<_> = found.iter().map(|e| (e.line, e.text.as_str())).collect();
        assert_eq!(lines, vec![(2, "over {\"tp\"}")]);
    }

    #[test]
    fn unmatched_and_unexpected_both_fail() {
        let expected = expectations("x // expected-error {{bad thing}}", 1).unwrap();
        // Lines count from where the chunk starts in the file.
        assert_eq!(expectations("\n// expected-error@+1 {{x}}", 10).unwrap()[0].line, 12);
        assert!(check("f", &[diag(Severity::Error, 1, "a bad thing here")], &expected).is_empty());
        assert_eq!(check("f", &[], &expected).len(), 1);
        assert_eq!(check("f", &[diag(Severity::Error, 2, "bad thing")], &expected).len(), 2);
        assert_eq!(
            check("f", &[diag(Severity::Warning, 1, "bad thing")], &expected).len(),
            2
        );
        let mut with_note = diag(Severity::Error, 1, "bad thing");
        with_note.notes.push(diag(Severity::Note, 1, "see here"));
        assert_eq!(check("f", &[with_note], &expected).len(), 1);
        // The right line of another file is not the expected place.
        let mut elsewhere = diag(Severity::Error, 1, "bad thing");
        elsewhere.location = Some(("g".into(), 1, 1));
        assert_eq!(check("f", &[elsewhere], &expected).len(), 2);
    }
}
