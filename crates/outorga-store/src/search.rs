//! The staff's search box: one text, read as whatever it can be — a name
//! (any of its words, by their beginnings, without accents), a CPF or CNPJ,
//! a plate, a RENAVAM, a permit number, a driver's registration, an auto
//! (`ano/número`) or a document's verification code. Each reading is one
//! index range with a limit, so a search costs the same at any size of
//! the record. Names are found through `person_words` (migration 0031),
//! written with the person.

use crate::{Store, StoreError, Tx};
use sqlx::Row;
use sqlx::any::AnyRow;
use unicode_normalization::UnicodeNormalization;

/// The most results of each kind a search returns.
pub const PER_KIND: i64 = 8;

/// Something the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Person {
        document: String,
        name: String,
    },
    Permit {
        service: String,
        number: i64,
        holder: String,
        status: String,
    },
    Vehicle {
        plate: String,
        renavam: String,
    },
    Driver {
        registration: String,
        driver: String,
        service: String,
        number: i64,
    },
    Auto {
        year: i64,
        number: i64,
        infraction: String,
        offender: String,
    },
    Document {
        code: String,
        kind: String,
        subject: String,
    },
}

/// The words of a name as the search compares them: lower case, without
/// accents, letters and digits only.
pub fn words(name: &str) -> Vec<String> {
    let plain: String = name
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect();
    let mut list: Vec<String> = plain
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    list.sort();
    list.dedup();
    list
}

/// The first text after every text that starts with `prefix` (its last
/// character moved one up): `prefix <= x < end` is the prefix as a range.
fn range_end(prefix: &str) -> String {
    let mut chars: Vec<char> = prefix.chars().collect();
    if let Some(last) = chars.pop() {
        chars.push(char::from_u32(u32::from(last) + 1).unwrap_or(last));
    }
    chars.into_iter().collect()
}

/// Records the words of a person's name (in the transaction that
/// registers them).
pub(crate) async fn index_person(
    tx: &mut Tx,
    jurisdiction: &str,
    document: &str,
    name: &str,
) -> Result<(), StoreError> {
    for word in words(name) {
        sqlx::query(
            "INSERT INTO person_words (jurisdiction, word, document) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(jurisdiction)
        .bind(&word)
        .bind(document)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Indexes the names of people registered before the search existed
/// (run when a migration was applied; nothing to do the next time).
pub(crate) async fn index_people(pool: &sqlx::AnyPool) -> Result<(), StoreError> {
    let rows = sqlx::query(
        "SELECT jurisdiction, document, name FROM people p WHERE NOT EXISTS \
         (SELECT 1 FROM person_words w WHERE w.jurisdiction = p.jurisdiction AND w.document = p.document)",
    )
    .fetch_all(pool)
    .await?;
    let mut tx = pool.begin().await?;
    for row in rows {
        let jurisdiction: String = row.try_get("jurisdiction")?;
        let document: String = row.try_get("document")?;
        let name: String = row.try_get("name")?;
        index_person(&mut tx, &jurisdiction, &document, &name).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// `AAAA/N` or `N/AAAA`: an auto's year and number.
fn auto_key(text: &str) -> Option<(i64, i64)> {
    let (a, b) = text.split_once('/')?;
    let (a, b): (i64, i64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    if a >= 1000 {
        Some((a, b))
    } else {
        Some((b, a))
    }
}

impl Store {
    /// What `text` finds in `jurisdiction`: up to [`PER_KIND`] of each kind.
    pub async fn search(&self, jurisdiction: &str, text: &str) -> Result<Vec<Found>, StoreError> {
        let text = text.trim();
        let bare: String = text
            .chars()
            .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
            .flat_map(char::to_uppercase)
            .collect();
        let mut found = Vec::new();
        let mut tx = self.pool.begin().await?;
        if let Some((year, number)) = auto_key(text) {
            found.extend(autos(&mut tx, jurisdiction, year, number).await?);
        }
        let alnum = !bare.is_empty() && bare.chars().all(|c| c.is_ascii_alphanumeric());
        if alnum && bare.len() >= 3 {
            found.extend(people_by_document(&mut tx, jurisdiction, &bare).await?);
            found.extend(vehicles(&mut tx, jurisdiction, "plate", &bare).await?);
            if bare.chars().all(|c| c.is_ascii_digit()) {
                found.extend(vehicles(&mut tx, jurisdiction, "renavam", &bare).await?);
            }
            found.extend(drivers(&mut tx, jurisdiction, text).await?);
            if bare.len() == 10 {
                found.extend(document(&mut tx, jurisdiction, &bare).await?);
            }
        }
        if let Ok(number) = bare.parse::<i64>()
            && bare.len() <= 9
        {
            found.extend(permits(&mut tx, jurisdiction, number).await?);
        }
        let words = words(text);
        if words
            .iter()
            .any(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        {
            found.extend(people_by_name(&mut tx, jurisdiction, &words).await?);
        }
        tx.commit().await?;
        found.dedup();
        Ok(found)
    }
}

/// Up to [`PER_KIND`] rows of `table` whose `column` starts with
/// `prefix`, in its order: one index range (every column searched leads an
/// index after `jurisdiction`).
async fn prefixed(
    tx: &mut Tx,
    (table, columns, column): (&str, &str, &str),
    jurisdiction: &str,
    prefix: &str,
) -> Result<Vec<AnyRow>, StoreError> {
    Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {columns} FROM {table} WHERE jurisdiction = $1 AND {column} >= $2 \
         AND {column} < $3 ORDER BY {column} LIMIT $4"
    )))
    .bind(jurisdiction)
    .bind(prefix)
    .bind(range_end(prefix))
    .bind(PER_KIND)
    .fetch_all(&mut **tx)
    .await?)
}

/// A row with a person's `document` and `name`.
fn person_of(row: &AnyRow) -> Result<Found, StoreError> {
    Ok(Found::Person {
        document: row.try_get("document")?,
        name: row.try_get("name")?,
    })
}

async fn people_by_document(
    tx: &mut Tx,
    jurisdiction: &str,
    prefix: &str,
) -> Result<Vec<Found>, StoreError> {
    let rows = prefixed(
        tx,
        ("people", "document, name", "document"),
        jurisdiction,
        prefix,
    )
    .await?;
    rows.iter().map(person_of).collect()
}

/// People whose name has a word starting with each of `words` (the
/// longest read by its index range, the others checked on its rows).
async fn people_by_name(
    tx: &mut Tx,
    jurisdiction: &str,
    words: &[String],
) -> Result<Vec<Found>, StoreError> {
    let Some(lead) = words.iter().max_by_key(|w| w.len()) else {
        return Ok(Vec::new());
    };
    let others: Vec<&String> = words.iter().filter(|w| *w != lead).take(4).collect();
    let mut sql = String::from(
        "SELECT DISTINCT p.document, p.name FROM person_words w JOIN people p \
         ON p.jurisdiction = w.jurisdiction AND p.document = w.document \
         WHERE w.jurisdiction = $1 AND w.word >= $2 AND w.word < $3",
    );
    for i in 0..others.len() {
        let n = 4 + 2 * i;
        sql.push_str(&format!(
            " AND EXISTS (SELECT 1 FROM person_words o WHERE o.jurisdiction = w.jurisdiction \
             AND o.document = w.document AND o.word >= ${n} AND o.word < ${})",
            n + 1
        ));
    }
    sql.push_str(&format!(" ORDER BY p.name LIMIT ${}", 4 + 2 * others.len()));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(jurisdiction)
        .bind(lead.as_str())
        .bind(range_end(lead));
    for word in others {
        query = query.bind(word.as_str()).bind(range_end(word));
    }
    let rows = query.bind(PER_KIND).fetch_all(&mut **tx).await?;
    rows.iter().map(person_of).collect()
}

async fn vehicles(
    tx: &mut Tx,
    jurisdiction: &str,
    column: &'static str,
    prefix: &str,
) -> Result<Vec<Found>, StoreError> {
    let rows = prefixed(
        tx,
        ("vehicles", "plate, renavam", column),
        jurisdiction,
        prefix,
    )
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Found::Vehicle {
                plate: r.try_get("plate")?,
                renavam: r.try_get("renavam")?,
            })
        })
        .collect()
}

async fn drivers(tx: &mut Tx, jurisdiction: &str, text: &str) -> Result<Vec<Found>, StoreError> {
    let columns = (
        "permit_drivers",
        "registration, driver, service, number",
        "registration",
    );
    let rows = prefixed(tx, columns, jurisdiction, &text.trim().to_uppercase()).await?;
    rows.iter()
        .map(|r| {
            Ok(Found::Driver {
                registration: r.try_get("registration")?,
                driver: r.try_get("driver")?,
                service: r.try_get("service")?,
                number: r.try_get("number")?,
            })
        })
        .collect()
}

async fn document(tx: &mut Tx, jurisdiction: &str, bare: &str) -> Result<Vec<Found>, StoreError> {
    let code = format!("{}-{}", &bare[..5], &bare[5..]);
    let rows = sqlx::query(
        "SELECT code, kind, subject FROM documents WHERE code = $1 AND jurisdiction = $2",
    )
    .bind(&code)
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Found::Document {
                code: r.try_get("code")?,
                kind: r.try_get("kind")?,
                subject: r.try_get("subject")?,
            })
        })
        .collect()
}

/// Permits of any service with this number (one key lookup per service).
async fn permits(tx: &mut Tx, jurisdiction: &str, number: i64) -> Result<Vec<Found>, StoreError> {
    let services = outorga_core::model::Service::ALL;
    let mut found = Vec::new();
    for service in services {
        let row = sqlx::query(
            "SELECT service, number, holder, status FROM permits \
             WHERE jurisdiction = $1 AND service = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(service.name())
        .bind(number)
        .fetch_optional(&mut **tx)
        .await?;
        if let Some(r) = row {
            found.push(Found::Permit {
                service: r.try_get("service")?,
                number: r.try_get("number")?,
                holder: r.try_get("holder")?,
                status: r.try_get("status")?,
            });
        }
    }
    Ok(found)
}

async fn autos(
    tx: &mut Tx,
    jurisdiction: &str,
    year: i64,
    number: i64,
) -> Result<Vec<Found>, StoreError> {
    let row = sqlx::query(
        "SELECT year, number, infraction, offender FROM autos \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    row.iter()
        .map(|r| {
            Ok(Found::Auto {
                year: r.try_get::<i64, _>("year")?,
                number: r.try_get("number")?,
                infraction: r.try_get("infraction")?,
                offender: r.try_get("offender")?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_searched_by_its_plain_words() {
        assert_eq!(
            words("José  da Conceição-Ávila"),
            vec!["avila", "conceicao", "da", "jose"]
        );
    }

    #[test]
    fn a_prefix_is_a_range() {
        assert_eq!(range_end("abc"), "abd");
        assert_eq!(range_end("AB9"), "AB:");
        assert!("abcz" < range_end("abc").as_str());
    }

    #[test]
    fn an_auto_is_read_either_way() {
        assert_eq!(auto_key("2026/15"), Some((2026, 15)));
        assert_eq!(auto_key("15/2026"), Some((2026, 15)));
        assert_eq!(auto_key("15"), None);
    }
}
