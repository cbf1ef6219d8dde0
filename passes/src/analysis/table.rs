//! The reports' tables.

use std::fmt::Write;

/// Aligned comment lines: numbers (the `right` columns) right-aligned,
/// text left-aligned.
pub fn table(header: &[&str], rows: &[Vec<String>], right: &[usize]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from("//");
        // Padded by hand: a format width above 65535 panics, and no
        // report may.
        for (c, cell) in cells.enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(cell.chars().count()));
            if right.contains(&c) {
                let _ = write!(s, "  {pad}{cell}");
            } else {
                let _ = write!(s, "  {cell}{pad}");
            }
        }
        let mut s = s.trim_end().to_owned();
        s.push('\n');
        s
    };
    let mut out = line(&mut header.iter().copied());
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
    }
    out
}
