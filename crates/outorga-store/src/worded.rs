//! Closed vocabularies of the record: one spelling in the database and the
//! API, one in Portuguese.

/// An enum whose variants each have one spelling in the record and one
/// in Portuguese: `ALL`, `name`, `parse`, `portuguese`.
macro_rules! worded {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $variant:ident = $code:literal => $pt:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $( $variant, )+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )+ ];

            /// The spelling in the record and the API.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $code, )+
                }
            }

            pub fn parse(text: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.name() == text)
            }

            /// As people read it.
            pub fn portuguese(self) -> &'static str {
                match self {
                    $( $name::$variant => $pt, )+
                }
            }
        }
    };
}
