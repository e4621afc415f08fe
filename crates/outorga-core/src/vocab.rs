//! Closed vocabularies: enums with one spelling each, the one rulebooks,
//! scenario files and the store's rows use.

/// Declares an enum whose variants each have one spelling: `ALL`, `name`,
/// `parse` (the spelling back to the variant) and `Display` (the spelling).
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )+ ];

            /// Every spelling, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[ $( $text, )+ ];

            /// The spelling in rulebooks, scenario files and the record.
            pub fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )+
                }
            }

            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $( $text => Some($name::$variant), )+
                    _ => None,
                }
            }

            /// Every spelling, for an error message.
            pub fn known() -> String {
                Self::NAMES.join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use vocabulary;

vocabulary! {
    /// A natural person or a company: the kind of a person in the facts,
    /// and of the holder a ground of the law's list is reserved to.
    #[derive(Default)]
    pub enum PersonKind {
        #[default]
        Person = "person",
        Company = "company",
    }
}
