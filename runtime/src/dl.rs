//! Libraries loaded at run time (`dlopen`), so that nothing needs CUDA or
//! NCCL to build and a machine without them gets a clear error.

use std::ffi::{CStr, CString, NulError, c_char, c_int, c_void};
use thiserror::Error;

unsafe extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

const RTLD_NOW: c_int = 2;
const RTLD_GLOBAL: c_int = 0x100;

/// A loaded library; never unloaded (its functions live in static tables).
pub struct Library {
    name: &'static str,
    handle: *mut c_void,
}

// SAFETY: a dlopen handle may be used from any thread.
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

/// Why a library or one of its functions could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadError {
    /// `dlopen` failed; the loader's message names the library.
    #[error("{message}")]
    Open { library: &'static str, message: String },
    #[error("{library} has no {symbol}")]
    Symbol { library: &'static str, symbol: String },
    /// A name with a NUL byte, which C cannot be given.
    #[error(transparent)]
    Name(#[from] NulError),
}

fn last_error() -> String {
    // SAFETY: dlerror returns null or a C string valid until the next call.
    unsafe {
        let message = dlerror();
        if message.is_null() {
            "unknown error".to_owned()
        } else {
            CStr::from_ptr(message).to_string_lossy().into_owned()
        }
    }
}

impl Library {
    /// Loads `name` (a soname such as `libcuda.so.1`).
    pub fn open(name: &'static str) -> Result<Self, LoadError> {
        let c_name = CString::new(name)?;
        // SAFETY: a valid C string; dlopen reports failure with null.
        let handle = unsafe { dlopen(c_name.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
        if handle.is_null() {
            return Err(LoadError::Open {
                library: name,
                message: last_error(),
            });
        }
        Ok(Self { name, handle })
    }

    /// The address of `symbol`.
    pub fn symbol(&self, symbol: &str) -> Result<*mut c_void, LoadError> {
        let c_symbol = CString::new(symbol)?;
        // SAFETY: the handle is live; dlsym reports failure with null.
        let address = unsafe { dlsym(self.handle, c_symbol.as_ptr()) };
        if address.is_null() {
            return Err(LoadError::Symbol {
                library: self.name,
                symbol: symbol.to_owned(),
            });
        }
        Ok(address)
    }
}

/// Declares a table of C functions of one library, loaded by symbol name.
macro_rules! library {
    ($(#[$meta:meta])* $table:ident { $($name:ident: fn($($arg:ty),*) -> $ret:ty;)* }) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        pub struct $table {
            $(pub $name: unsafe extern "C" fn($($arg),*) -> $ret,)*
        }

        impl $table {
            fn load(library: &$crate::dl::Library) -> Result<Self, $crate::dl::LoadError> {
                Ok(Self {
                    // SAFETY: each symbol has the C signature declared here
                    // (the library's ABI, as each table's documentation says).
                    $($name: unsafe {
                        std::mem::transmute::<*mut std::ffi::c_void, unsafe extern "C" fn($($arg),*) -> $ret>(
                            library.symbol(stringify!($name))?,
                        )
                    },)*
                })
            }
        }
    };
}
pub(crate) use library;

#[cfg(test)]
mod tests {
    use super::{Library, LoadError};

    #[test]
    fn a_missing_library_is_an_error_naming_it() {
        let error = Library::open("libdist-no-such-library.so.1")
            .err()
            .expect("no such library");
        assert!(
            matches!(
                error,
                LoadError::Open {
                    library: "libdist-no-such-library.so.1",
                    ..
                }
            ),
            "{error:?}"
        );
        assert!(error.to_string().contains("libdist-no-such-library.so.1"), "{error}");
    }

    #[test]
    fn symbols_resolve_and_a_missing_one_is_named() {
        let libc = Library::open("libc.so.6").expect("glibc");
        assert!(libc.symbol("strlen").is_ok());
        assert_eq!(
            libc.symbol("dist_no_such_symbol").err().unwrap().to_string(),
            "libc.so.6 has no dist_no_such_symbol"
        );
        assert!(matches!(libc.symbol("strlen\0"), Err(LoadError::Name(_))));
    }
}
