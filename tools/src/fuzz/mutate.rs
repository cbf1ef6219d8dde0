//! Deterministic mutation of MLIR text at token and line level: input `k` of
//! a campaign with seed `s` is always the same text, so a crash found by a
//! worker that died can be written out again by the supervisor.

/// splitmix64: small, fast and good enough to pick mutations.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The generator of input `index` of a campaign seeded `seed`.
    pub fn for_input(seed: u64, index: u64) -> Self {
        let mut rng = Self(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        rng.next_u64();
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.below(items.len())]
    }
}

/// What a token is, for choosing replacements of the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Number,
    Word,
    Text,
    Punct,
    Space,
}

/// `text` cut into tokens (joined back, they are `text`).
pub fn tokens(text: &str) -> Vec<(Kind, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Space
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                // Stop a shape's dims at their `x` (`8x32xf32`).
                if bytes[i] == b'x' && i > start && bytes[start..i].iter().all(u8::is_ascii_digit) {
                    break;
                }
                i += 1;
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || b"_$.".contains(&bytes[i])) {
                i += 1;
            }
            Kind::Word
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            Kind::Text
        } else {
            // One character, whole (the corpus is ASCII, but stay on
            // character boundaries anyway).
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Punct
        };
        out.push((kind, &text[start..i]));
    }
    out
}

/// Numbers worth trying: edges of the integer types, zero, negative,
/// sizes that do not divide, huge shapes.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "5",
    "7",
    "64",
    "1024",
    "65536",
    "2147483647",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "1.0e300",
    "0.0",
];

const PUNCTUATION: &[&str] = &[
    "(", ")", "<", ">", "[", "]", "{", "}", ",", ":", "=", "%", "@", "#", "!", "-", "?",
];

/// The material mutations splice in: every word and quoted string of the
/// corpus, and every line.
#[derive(Debug, Default)]
pub struct Dictionary {
    pub words: Vec<String>,
    pub texts: Vec<String>,
    pub lines: Vec<String>,
}

impl Dictionary {
    pub fn of(corpus: &[String]) -> Self {
        let mut words = std::collections::BTreeSet::new();
        let mut texts = std::collections::BTreeSet::new();
        let mut lines = std::collections::BTreeSet::new();
        for entry in corpus {
            for (kind, token) in tokens(entry) {
                match kind {
                    Kind::Word => words.insert(token.to_owned()),
                    Kind::Text => texts.insert(token.to_owned()),
                    _ => false,
                };
            }
            lines.extend(entry.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned));
        }
        Self {
            words: words.into_iter().collect(),
            texts: texts.into_iter().collect(),
            lines: lines.into_iter().collect(),
        }
    }
}

/// One mutation of `text`.
fn mutate_once(text: &str, rng: &mut Rng, dictionary: &Dictionary) -> String {
    let choice = rng.below(10);
    if choice < 4 {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        if lines.is_empty() {
            return text.to_owned();
        }
        let at = rng.below(lines.len());
        match choice {
            0 => {
                lines.remove(at);
            }
            1 => lines.insert(at, lines[at].clone()),
            2 => {
                let other = rng.below(lines.len());
                lines.swap(at, other);
            }
            _ if !dictionary.lines.is_empty() => lines.insert(at, rng.pick(&dictionary.lines).clone()),
            _ => {}
        }
        return lines.join("\n") + "\n";
    }
    let mut tokens: Vec<(Kind, String)> = tokens(text).into_iter().map(|(k, t)| (k, t.to_owned())).collect();
    let solid: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].0 != Kind::Space).collect();
    if solid.is_empty() {
        return text.to_owned();
    }
    let at = *rng.pick(&solid);
    match choice {
        4 => tokens.remove(at),
        5 => {
            let copy = tokens[at].clone();
            tokens.insert(at, copy);
            (Kind::Space, String::new())
        }
        6 => {
            let other = *rng.pick(&solid);
            tokens.swap(at, other);
            (Kind::Space, String::new())
        }
        _ => {
            let replacement = match tokens[at].0 {
                Kind::Number => (*rng.pick(NUMBERS)).to_owned(),
                Kind::Word if !dictionary.words.is_empty() => rng.pick(&dictionary.words).clone(),
                Kind::Text if !dictionary.texts.is_empty() => rng.pick(&dictionary.texts).clone(),
                _ => (*rng.pick(PUNCTUATION)).to_owned(),
            };
            std::mem::replace(&mut tokens[at], (Kind::Word, replacement))
        }
    };
    tokens.into_iter().map(|(_, t)| t).collect()
}

/// Input `index` of a campaign: a corpus entry with one to four mutations.
pub fn input(corpus: &[String], dictionary: &Dictionary, seed: u64, index: u64) -> String {
    let mut rng = Rng::for_input(seed, index);
    let mut text = rng.pick(corpus).clone();
    for _ in 0..1 + rng.below(4) {
        text = mutate_once(&text, &mut rng, dictionary);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_cover_the_text_and_split_shapes() {
        let text = "%0 = dist.add %x, %b : (tensor<8x32xf32>) {name = \"a b\"}\n";
        let toks = tokens(text);
        assert_eq!(toks.iter().map(|(_, t)| *t).collect::<String>(), text);
        assert!(toks.contains(&(Kind::Number, "8")));
        assert!(toks.contains(&(Kind::Word, "x32xf32")));
        assert!(toks.contains(&(Kind::Word, "dist.add")));
        assert!(toks.contains(&(Kind::Text, "\"a b\"")));
    }

    #[test]
    fn inputs_are_reproducible_and_differ() {
        let corpus = vec!["func.func @f(%x: tensor<4xf32>) {\n  return\n}\n".to_owned()];
        let dictionary = Dictionary::of(&corpus);
        let a = input(&corpus, &dictionary, 1, 42);
        assert_eq!(a, input(&corpus, &dictionary, 1, 42));
        let distinct: std::collections::BTreeSet<String> =
            (0..200).map(|k| input(&corpus, &dictionary, 1, k)).collect();
        assert!(distinct.len() > 100, "only {} distinct inputs", distinct.len());
    }
}
