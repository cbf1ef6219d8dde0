//! The passes' option types as clap values: a tool flag that sets a pass
//! option (`dist-run --schedule`, `--reduce-dtype`, `--matmul-tile`) parses
//! its value as the pass does, says what it must be in the pass's words and
//! lists the pass's choices in `--help`.

use clap::builder::{PossibleValue, TypedValueParser};
use dist_passes::pass::options::OptionValue;
use std::ffi::OsStr;
use std::marker::PhantomData;

/// `value_parser = PassValue::<T>::new()`.
#[derive(Clone)]
pub struct PassValue<T>(PhantomData<fn() -> T>);

impl<T> PassValue<T> {
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for PassValue<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: OptionValue + Clone + Send + Sync + 'static> TypedValueParser for PassValue<T> {
    type Value = T;

    fn parse_ref(&self, command: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let parse = |text: &str| T::parse(text).map_err(|expected| format!("must be {expected}"));
        parse.parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        (!T::CHOICES.is_empty()).then(|| Box::new(T::CHOICES.iter().map(PossibleValue::new)) as Box<_>)
    }
}
