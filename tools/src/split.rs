//! `--split-input-file`: chunks separated by `// -----` lines.

/// One chunk of the input and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk<'a> {
    pub text: &'a str,
    pub first_line: u32,
}

pub const MARKER: &str = "// -----";

/// Splits `source` into chunks; with `split` false the whole input is one.
pub fn split(source: &str, split: bool) -> Vec<Chunk<'_>> {
    if !split {
        return vec![Chunk {
            text: source,
            first_line: 1,
        }];
    }
    let mut chunks = Vec::new();
    let (mut start, mut first_line, mut line) = (0, 1, 1);
    let mut offset = 0;
    for raw in source.split_inclusive('\n') {
        if raw.trim_end() == MARKER {
            chunks.push(Chunk {
                text: &source[start..offset],
                first_line,
            });
            start = offset + raw.len();
            first_line = line + 1;
        }
        offset += raw.len();
        line += 1;
    }
    chunks.push(Chunk {
        text: &source[start..],
        first_line,
    });
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_marker_lines() {
        let chunks = split("a\n// -----\nb\nc\n// -----\nd", true);
        let texts: Vec<_> = chunks.iter().map(|c| (c.text, c.first_line)).collect();
        assert_eq!(texts, vec![("a\n", 1), ("b\nc\n", 3), ("d", 6)]);
        assert_eq!(split("a\n// -----\n", false).len(), 1);
        // A marker inside a longer comment is not a split point.
        assert_eq!(split("// ----- x\n", true).len(), 1);
    }
}
