//! `message_error!`: an error type that is one message, made the same way
//! wherever a crate's errors are a line for the binary to print (the match
//! runner's `UsageError` and `SetupError`, training's `DataError` and
//! `UnknownSplit`). Here because every such crate already depends on the
//! engine, and on nothing else in common.

/// Implements, for a tuple struct over one `String`, `From<String>`,
/// `From<&str>`, `Display` (the message as it is) and `std::error::Error`.
///
/// ```
/// #[derive(Debug)]
/// pub struct SetupError(String);
/// tama_engine::message_error!(SetupError);
/// let e: SetupError = "no engine".into();
/// assert_eq!(e.to_string(), "no engine");
/// ```
#[macro_export]
macro_rules! message_error {
    ($t:ident) => {
        impl ::std::convert::From<::std::string::String> for $t {
            fn from(message: ::std::string::String) -> $t {
                $t(message)
            }
        }

        impl ::std::convert::From<&str> for $t {
            fn from(message: &str) -> $t {
                $t(message.to_string())
            }
        }

        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl ::std::error::Error for $t {}
    };
}
