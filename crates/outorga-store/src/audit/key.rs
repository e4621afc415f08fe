//! The audit key: a secret kept outside the database that seals the log.
//!
//! Every entry carries `mac = HMAC-SHA256(key, entry's hash)`, and the head
//! a MAC of its sequence and hash, so someone who can write to the database
//! but does not hold the key can neither edit an entry (and recompute the
//! chain), nor append one, nor move the head back over deleted entries.
//! Each use of the key has its own domain string, so no MAC of one kind can
//! be passed off as another.

use crate::StoreError;
use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// What each MAC authenticates (domain separation).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Purpose {
    Entry,
    Head,
    Checkpoint,
    KeyId,
}

impl Purpose {
    fn domain(self) -> &'static str {
        match self {
            Purpose::Entry => "outorga/audit/entry/v1",
            Purpose::Head => "outorga/audit/head/v1",
            Purpose::Checkpoint => "outorga/audit/checkpoint/v1",
            Purpose::KeyId => "outorga/audit/key-id/v1",
        }
    }
}

/// One 256-bit audit key. Its `Debug` shows only its public id.
#[derive(Clone, PartialEq, Eq)]
pub struct AuditKey([u8; 32]);

impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AuditKey({})", self.id())
    }
}

fn invalid(reason: String) -> StoreError {
    StoreError::Invalid {
        field: "chave de auditoria",
        reason,
    }
}

impl AuditKey {
    /// A new key from the operating system's random source.
    pub fn generate() -> Result<AuditKey, StoreError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| StoreError::Corrupt(format!("no randomness for a new audit key: {e}")))?;
        Ok(AuditKey(bytes))
    }

    /// A key written as 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Result<AuditKey, StoreError> {
        let text = text.trim();
        if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid(format!(
                "uma chave tem 64 dígitos hexadecimais (0-9, a-f); esta tem {} caracteres",
                text.chars().count()
            )));
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
                .map_err(|_| invalid("dígito hexadecimal inválido".into()))?;
        }
        Ok(AuditKey(bytes))
    }

    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The key's public name (16 hex digits): recorded in the database, so
    /// a server started with another key is told so instead of finding
    /// every entry broken.
    pub fn id(&self) -> String {
        let mut id = self.mac(Purpose::KeyId, &[]);
        id.truncate(16);
        id
    }

    /// The MAC of `parts` (one per line) for `purpose`, in hex.
    pub(crate) fn mac(&self, purpose: Purpose, parts: &[&str]) -> String {
        // HMAC pads a key shorter than the hash's block with zeros, so the
        // key padded here to the block (64 bytes) is the same key.
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(&self.0);
        let mut mac = <HmacSha256 as KeyInit>::new(&block.into());
        mac.update(purpose.domain().as_bytes());
        for part in parts {
            mac.update(b"\n");
            mac.update(part.as_bytes());
        }
        format!("{:x}", mac.finalize().into_bytes())
    }

    /// Whether `mac` is the MAC of `parts` for `purpose` (in constant time).
    pub(crate) fn verifies(&self, purpose: Purpose, parts: &[&str], mac: &str) -> bool {
        let expected = self.mac(purpose, parts);
        expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

/// A deployment's audit keys: the current one, which seals the log, and the
/// ones it replaced, kept only to check the checkpoints they signed.
///
/// As text (the key file, or `OUTORGA_AUDIT_KEY`): one key per line, oldest
/// first, the current one last; blank lines and lines starting with `#`
/// are ignored, and in the environment commas or spaces also separate keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditKeys {
    current: AuditKey,
    earlier: Vec<AuditKey>,
}

impl AuditKeys {
    pub fn new(current: AuditKey) -> AuditKeys {
        AuditKeys {
            current,
            earlier: Vec::new(),
        }
    }

    /// The keys in `text` (see the type's documentation).
    pub fn parse(text: &str) -> Result<AuditKeys, StoreError> {
        let mut keys = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .flat_map(|line| line.split([',', ' ', '\t']))
            .filter(|word| !word.is_empty())
            .map(AuditKey::from_hex)
            .collect::<Result<Vec<_>, _>>()?;
        let Some(current) = keys.pop() else {
            return Err(invalid(
                "não há nenhuma chave (64 dígitos hexadecimais)".into(),
            ));
        };
        Ok(AuditKeys {
            current,
            earlier: keys,
        })
    }

    /// The text form: one key per line, the current one last.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# outorga: chaves do registro de auditoria (a atual por último). Guarde em segredo.\n",
        );
        for key in self.earlier.iter().chain([&self.current]) {
            text.push_str(&key.to_hex());
            text.push('\n');
        }
        text
    }

    pub fn current(&self) -> &AuditKey {
        &self.current
    }

    /// These keys with `new` as the current one (the old one kept).
    pub fn rotated(&self, new: AuditKey) -> AuditKeys {
        let mut earlier = self.earlier.clone();
        earlier.push(self.current.clone());
        AuditKeys {
            current: new,
            earlier,
        }
    }

    /// The key whose id is `id`, current or earlier.
    pub(crate) fn with_id(&self, id: &str) -> Option<&AuditKey> {
        std::iter::once(&self.current)
            .chain(&self.earlier)
            .find(|key| key.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_their_text() {
        let keys = AuditKeys::new(AuditKey::from_hex(&"ab".repeat(32)).expect("key"))
            .rotated(AuditKey::from_hex(&"01".repeat(32)).expect("key"));
        let again = AuditKeys::parse(&keys.to_text()).expect("parse");
        assert_eq!(again, keys);
        assert_eq!(again.current().to_hex(), "01".repeat(32));
        let id = AuditKey::from_hex(&"ab".repeat(32)).expect("key").id();
        assert!(again.with_id(&id).is_some());
        assert_eq!(id.len(), 16);
    }

    #[test]
    fn bad_keys_are_refused_with_the_reason() {
        for text in ["", "# só comentário", "abc", &"zz".repeat(32)] {
            let err = AuditKeys::parse(text).expect_err(text);
            assert!(err.to_string().contains("chave de auditoria"), "{err}");
        }
        let two = format!("{}, {}", "ab".repeat(32), "cd".repeat(32));
        assert_eq!(
            AuditKeys::parse(&two).expect("two").current().to_hex(),
            "cd".repeat(32)
        );
    }

    #[test]
    fn macs_depend_on_key_purpose_and_every_part() {
        let key = AuditKey::from_hex(&"ab".repeat(32)).expect("key");
        let other = AuditKey::from_hex(&"ac".repeat(32)).expect("key");
        let mac = key.mac(Purpose::Entry, &["1", "abc"]);
        assert!(key.verifies(Purpose::Entry, &["1", "abc"], &mac));
        assert!(!key.verifies(Purpose::Head, &["1", "abc"], &mac));
        assert!(!key.verifies(Purpose::Entry, &["1", "abd"], &mac));
        assert!(!key.verifies(Purpose::Entry, &["1abc"], &mac));
        assert!(!other.verifies(Purpose::Entry, &["1", "abc"], &mac));
        assert!(!format!("{key:?}").contains(&key.to_hex()));
    }
}
