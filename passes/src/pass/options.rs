//! Pass options declared once, with their types: each pass's options are a
//! struct written with [`pass_options!`](crate::pass_options), which
//! gives MLIR every option's name, help, default and choices
//! ([`OptionInfo`], what `--help` and `--dump-pass-pipeline` print), parses
//! each value by its field's type ([`OptionValue`]) and prints the options
//! back as pipeline text ([`PassOptions::render`]), so that a pipeline is
//! assembled from option values, not strings.

use super::OptionInfo;
use thiserror::Error;

// The macros are exported at the crate root (a pass outside this crate
// declares its options with them too); inside it they are named here,
// beside what they build.
pub use crate::{option_enum, option_words, pass_options};

/// What an option's value must be (`a positive integer`), when its text
/// is not one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct Expected(pub String);

impl From<&str> for Expected {
    fn from(what: &str) -> Self {
        Expected(what.to_owned())
    }
}

/// Why a pass's options were not set; the text is what MLIR reports.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("{name} must be {expected}, not '{value}'")]
    Invalid {
        name: String,
        expected: Expected,
        value: String,
    },
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// A renamed option given by both its names.
    #[error("{0} and its earlier name {1} are both given")]
    BothNames(&'static str, &'static str),
}

/// The text form of an option's value: how `pass{name=value}` is parsed
/// and how the value is printed back.
pub trait OptionValue: Sized {
    /// The words it takes, when it takes one of a few (`--help` lists them).
    const CHOICES: &'static [&'static str] = &[];
    /// The value `text` states, or what it must be (`a positive number`).
    fn parse(text: &str) -> Result<Self, Expected>;
    /// The text that parses back to it.
    fn text(&self) -> String;
}

/// A pass's options, set by name from their declaration.
pub trait PassOptions: Send {
    /// The declared options, in `--help` order.
    fn info(&self) -> Vec<OptionInfo>;
    /// Sets option `name` from `value`.
    fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError>;
    /// `name=value` of each option that differs from its default, separated
    /// by spaces: what goes between the braces of `pass{...}`.
    fn render(&self) -> String;
}

/// Sets `options` from the text between the braces of `name{...}`:
/// `key=value` (or a bare `key`, true) separated by spaces.
pub fn parse_text(options: &mut dyn PassOptions, text: &str) -> Result<(), String> {
    for item in text.split_whitespace() {
        let (name, value) = item.split_once('=').unwrap_or((item, "true"));
        options.set(name, value).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `a, b or c`.
pub fn alternatives(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `value` of option `name` parsed as `T`.
pub fn parse_option<T: OptionValue>(name: &str, value: &str) -> Result<T, OptionError> {
    T::parse(value).map_err(|expected| OptionError::Invalid {
        name: name.to_owned(),
        expected,
        value: value.to_owned(),
    })
}

impl OptionValue for bool {
    const CHOICES: &'static [&'static str] = &["false", "true"];
    fn parse(text: &str) -> Result<Self, Expected> {
        match text {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(Expected(alternatives(Self::CHOICES))),
        }
    }
    fn text(&self) -> String {
        self.to_string()
    }
}

/// A count of at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Positive(pub usize);

impl OptionValue for Positive {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse()
            .ok()
            .filter(|&n: &usize| n >= 1)
            .map(Positive)
            .ok_or_else(|| Expected::from("a positive integer"))
    }
    fn text(&self) -> String {
        self.0.to_string()
    }
}

impl OptionValue for usize {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse().map_err(|_| Expected::from("a non-negative integer"))
    }
    fn text(&self) -> String {
        self.to_string()
    }
}

/// A finite number above 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositiveNumber(pub f64);

impl OptionValue for PositiveNumber {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v > 0.0)
            .map(PositiveNumber)
            .ok_or_else(|| Expected::from("a positive number"))
    }
    fn text(&self) -> String {
        self.0.to_string()
    }
}

/// A finite number of at least 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NonNegative(pub f64);

impl OptionValue for NonNegative {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .map(NonNegative)
            .ok_or_else(|| Expected::from("a non-negative number"))
    }
    fn text(&self) -> String {
        self.0.to_string()
    }
}

/// A word that names something (a mesh axis); not empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(pub String);

impl OptionValue for Name {
    fn parse(text: &str) -> Result<Self, Expected> {
        if text.is_empty() {
            Err(Expected::from("a name"))
        } else {
            Ok(Name(text.to_owned()))
        }
    }
    fn text(&self) -> String {
        self.0.clone()
    }
}

/// Any text, empty included (a path).
impl OptionValue for String {
    fn parse(text: &str) -> Result<Self, Expected> {
        Ok(text.to_owned())
    }
    fn text(&self) -> String {
        self.clone()
    }
}

/// Unset where empty (the default of an option that may be left out).
impl<T: OptionValue> OptionValue for Option<T> {
    const CHOICES: &'static [&'static str] = T::CHOICES;
    fn parse(text: &str) -> Result<Self, Expected> {
        if text.is_empty() {
            Ok(None)
        } else {
            T::parse(text).map(Some)
        }
    }
    fn text(&self) -> String {
        self.as_ref().map_or_else(String::new, T::text)
    }
}

/// Comma-separated indices (`1,2,5`); empty for none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Indices(pub Vec<usize>);

impl OptionValue for Indices {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| v.parse().map_err(|_| Expected::from("indices separated by commas")))
            .collect::<Result<_, _>>()
            .map(Indices)
    }
    fn text(&self) -> String {
        self.0.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
    }
}

/// An enum whose variants are the words an option takes:
/// `option_enum! { pub enum Remarks { None = "none", All = "all" } }`.
#[macro_export]
macro_rules! option_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        $crate::pass::options::option_words! { $name { $($variant = $word),+ } }
    };
}

/// The words of an enum defined elsewhere (the solver's `Direction`) as
/// an option's values: `option_words! { Direction { Both = "both", ... } }`.
#[macro_export]
macro_rules! option_words {
    ($name:ty { $($variant:ident = $word:literal),+ $(,)? }) => {
        impl $crate::pass::options::OptionValue for $name {
            const CHOICES: &'static [&'static str] = &[$($word),+];
            fn parse(text: &str) -> Result<Self, $crate::pass::options::Expected> {
                match text {
                    $($word => Ok(<$name>::$variant),)+
                    _ => Err($crate::pass::options::Expected($crate::pass::options::alternatives(Self::CHOICES))),
                }
            }
            fn text(&self) -> String {
                match self {
                    $(<$name>::$variant => $word,)+
                }
                .to_owned()
            }
        }
    };
}

/// A pass's options as a struct, each field declared once with its option
/// name, default (as text) and help, then the groups of options it shares
/// with other passes (each a struct of this macro's):
///
/// ```ignore
/// pass_options! {
///     /// The options of dist-pipeline-report.
///     pub struct PipelineReportOptions {
///         microbatches: Positive = "microbatches", "1", "Microbatches each step's data is split into";
///         @group machine: MachineOptions;
///     }
/// }
/// ```
///
/// gives the struct, its `Default` (the defaults parsed), `info()` (the
/// options MLIR declares, in the order written, the groups' after the
/// struct's own) and its
/// [`PassOptions`]; a last `@check path;` names a function that checks the
/// options together after each is set (two that exclude each other).
#[macro_export]
macro_rules! pass_options {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $($field:ident : $ty:ty = $option:literal, $default:literal, $help:literal;)*
        $(@group $group:ident : $gty:ty;)*
        $(@check $check:path;)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        $vis struct $name {
            $(pub $field: $ty,)*
            $(pub $group: $gty,)*
        }

        impl $name {
            /// The options, as MLIR declares them.
            pub fn info() -> Vec<$crate::pass::OptionInfo> {
                #[allow(unused_mut)]
                let mut info: Vec<$crate::pass::OptionInfo> = vec![$(
                    $crate::pass::OptionInfo {
                        name: $option,
                        description: $help,
                        default: $default,
                        choices: <$ty as $crate::pass::options::OptionValue>::CHOICES,
                    },
                )*];
                $(info.extend(<$gty>::info());)*
                info
            }
        }

        impl Default for $name {
            /// The declared defaults.
            fn default() -> Self {
                Self {
                    $($field: <$ty as $crate::pass::options::OptionValue>::parse($default)
                        .expect("a declared default parses"),)*
                    $($group: <$gty>::default(),)*
                }
            }
        }

        impl $crate::pass::options::PassOptions for $name {
            fn info(&self) -> Vec<$crate::pass::OptionInfo> {
                Self::info()
            }

            fn set(&mut self, name: &str, value: &str) -> Result<(), $crate::pass::options::OptionError> {
                match name {
                    $($option => self.$field = $crate::pass::options::parse_option(name, value)?,)*
                    $(_ if <$gty>::info().iter().any(|o| o.name == name) => {
                        return $crate::pass::options::PassOptions::set(&mut self.$group, name, value);
                    })*
                    _ => return Err($crate::pass::options::OptionError::Unknown(name.to_owned())),
                }
                $($check(self)?;)?
                #[allow(unreachable_code)]
                Ok(())
            }

            fn render(&self) -> String {
                #[allow(unused_variables)]
                let defaults = Self::default();
                #[allow(unused_mut)]
                let mut set: Vec<String> = Vec::new();
                $(if self.$field != defaults.$field {
                    set.push(format!("{}={}", $option, $crate::pass::options::OptionValue::text(&self.$field)));
                })*
                $(set.push($crate::pass::options::PassOptions::render(&self.$group));)*
                set.retain(|s| !s.is_empty());
                set.join(" ")
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::pass::options::option_enum! {
        enum Direction { Both = "both", Forward = "forward", Backward = "backward" }
    }

    crate::pass::options::pass_options! {
        struct Example {
            direction: Direction = "direction", "both", "Which way";
            count: Positive = "count", "8", "How many";
            axis: Option<Name> = "axis", "", "Which axis";
        }
    }

    crate::pass::options::pass_options! {
        struct Composed {
            trace: bool = "trace", "false", "Trace";
            @group example: Example;
        }
    }

    #[test]
    fn groups_come_after_the_own_options() {
        let mut options = Composed::default();
        let names: Vec<&str> = Composed::info().iter().map(|o| o.name).collect();
        assert_eq!(names, ["trace", "direction", "count", "axis"]);
        options.set("count", "3").unwrap();
        options.set("trace", "true").unwrap();
        assert_eq!(options.render(), "trace=true count=3");
        assert_eq!(
            options.set("colour", "red").unwrap_err().to_string(),
            "unknown option 'colour'"
        );
    }

    #[test]
    fn declared_once_parsed_and_printed_back() {
        let mut options = Example::default();
        assert_eq!(options.direction, Direction::Both);
        let info = Example::info();
        assert_eq!(info[0].choices, ["both", "forward", "backward"]);
        assert_eq!((info[1].name, info[1].default), ("count", "8"));
        assert_eq!(options.render(), "");
        options.set("direction", "forward").unwrap();
        options.set("axis", "pp").unwrap();
        assert_eq!(options.render(), "direction=forward axis=pp");
        assert_eq!(
            options.set("direction", "sideways").unwrap_err().to_string(),
            "direction must be both, forward or backward, not 'sideways'"
        );
        assert_eq!(
            options.set("count", "0").unwrap_err().to_string(),
            "count must be a positive integer, not '0'"
        );
        assert_eq!(
            options.set("colour", "red").unwrap_err().to_string(),
            "unknown option 'colour'"
        );
    }
}
