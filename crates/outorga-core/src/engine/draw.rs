//! A public draw: one mechanism for every allocation the laws leave to
//! chance (a stand's vacancy, Canguçu art. 15, § 4º; a tie in a public
//! call). Anyone recomputes it from what is published before and after: the
//! closed list of participants and its SHA-256, the seed fixed in advance
//! from a public source, each participant's ticket, the order.

use crate::context::EngineError;
use chrono::NaiveDate;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// How the order follows from the seed, for anyone to re-run it.
pub const ALGORITHM: &str = "each candidate's ticket is SHA-256 of the UTF-8 text `<seed>\\n<candidate>` \
(printf '%s\\n%s' \"$SEED\" \"$CANDIDATE\" | sha256sum), in lower-case hexadecimal; \
candidates are drawn in increasing order of ticket";

/// How the closed list of participants is fingerprinted before the draw.
pub const LIST_ALGORITHM: &str = "the list's hash is SHA-256 of the participants, one per line, \
each line ended by a newline, in the order published (printf '%s\\n' \"${PARTICIPANTS[@]}\" | sha256sum)";

/// SHA-256 of `bytes` in lower-case hexadecimal.
fn hex_sha256(parts: &[&[u8]]) -> String {
    let mut digest = Sha256::new();
    for part in parts {
        digest.update(part);
    }
    let mut hex = String::with_capacity(64);
    for byte in digest.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// A participant's ticket: SHA-256 of `<seed>\n<participant>`.
pub fn ticket(seed: &str, participant: &str) -> String {
    hex_sha256(&[seed.as_bytes(), b"\n", participant.as_bytes()])
}

/// The fingerprint of the closed list, published before the seed is known.
pub fn list_hash(participants: &[&str]) -> String {
    let mut parts: Vec<&[u8]> = Vec::with_capacity(participants.len() * 2);
    for p in participants {
        parts.push(p.as_bytes());
        parts.push(b"\n");
    }
    hex_sha256(&parts)
}

/// Whether `participants` may be drawn: none blank, none twice, none with a
/// line break (the list's hash reads one per line).
pub fn check_participants(participants: &[&str]) -> Result<(), EngineError> {
    if participants.is_empty() {
        return Err(EngineError::InvalidQuestion(
            "o sorteio precisa de ao menos um participante".into(),
        ));
    }
    for (i, p) in participants.iter().enumerate() {
        if p.trim().is_empty() || p.contains(['\n', '\r']) {
            return Err(EngineError::InvalidQuestion(format!(
                "o participante {} está em branco ou tem quebra de linha: cada um é uma linha da lista",
                i + 1
            )));
        }
        if participants[..i].contains(p) {
            return Err(EngineError::InvalidQuestion(format!(
                "o candidato `{p}` está na lista duas vezes: cada um entra uma vez"
            )));
        }
    }
    Ok(())
}

/// The order of the draw: every participant with their ticket, by
/// increasing ticket (a tie between tickets, which SHA-256 makes
/// impossible in practice, by the participant's text).
pub fn order<'a>(
    seed: &str,
    participants: &[&'a str],
) -> Result<Vec<(&'a str, String)>, EngineError> {
    if seed.trim().is_empty() {
        return Err(EngineError::InvalidQuestion(
            "o sorteio precisa da semente anunciada antes dele".into(),
        ));
    }
    check_participants(participants)?;
    let mut order: Vec<(&'a str, String)> =
        participants.iter().map(|&p| (p, ticket(seed, p))).collect();
    order.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(b.0)));
    Ok(order)
}

/// Whether the list may be closed on `today` for a seed that a public
/// source gives on `seed_on`: the list is closed before the seed exists,
/// so no one knows the tickets while it can still change.
pub fn may_close(today: NaiveDate, seed_on: NaiveDate) -> Result<(), String> {
    if seed_on < today {
        return Err(format!(
            "a semente vem de {}, que já passou: feche a lista antes da fonte pública da semente \
             (anuncie outra data)",
            seed_on.format("%d/%m/%Y")
        ));
    }
    Ok(())
}

/// Whether the draw may be run on `today`: its list closed, and the day of
/// the seed's public source come.
pub fn may_draw(today: NaiveDate, seed_on: NaiveDate) -> Result<(), String> {
    if today < seed_on {
        return Err(format!(
            "a semente só existe em {}: sorteie a partir desse dia",
            seed_on.format("%d/%m/%Y")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticket_is_the_sha256_of_seed_newline_participant() {
        // printf '%s\n%s' 'seed' 'ana' | sha256sum
        assert_eq!(
            ticket("seed", "ana"),
            "93f33606c4ffc46bd6bb4c2ea9be2b71565b8a30dfaf6c233c1f913333378cdb"
        );
        // printf '%s\n%s' '' '' | sha256sum: the digest of a single newline
        assert_eq!(
            ticket("", ""),
            "01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b"
        );
    }

    #[test]
    fn the_lists_hash_reads_one_participant_per_line() {
        // printf '%s\n' a b | sha256sum
        assert_eq!(
            list_hash(&["a", "b"]),
            "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2"
        );
        // printf '' | sha256sum: the empty list
        assert_eq!(
            list_hash(&[]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn blank_repeated_or_multiline_participants_and_a_blank_seed_are_refused() {
        assert!(order("s", &["a", "a"]).is_err());
        assert!(order("s", &["a", " "]).is_err());
        assert!(order("s", &["a\nb"]).is_err());
        assert!(order(" ", &["a"]).is_err());
        assert!(order("s", &[]).is_err());
    }

    #[test]
    fn the_list_closes_up_to_the_seeds_day_and_the_draw_runs_from_it() {
        let day = |d| NaiveDate::from_ymd_opt(2026, 12, d).expect("a day");
        assert!(may_close(day(10), day(10)).is_ok());
        assert!(may_close(day(11), day(10)).is_err());
        assert!(may_draw(day(9), day(10)).is_err());
        assert!(may_draw(day(10), day(10)).is_ok());
    }

    #[test]
    fn the_order_is_by_ticket_whatever_the_lists_order() {
        let one = order("seed", &["a", "b", "c", "d"]).expect("drawn");
        let two = order("seed", &["d", "c", "b", "a"]).expect("drawn");
        assert_eq!(one, two);
        assert!(one.windows(2).all(|w| w[0].1 < w[1].1));
    }
}
