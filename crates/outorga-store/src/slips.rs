//! Payment slips (guias de recolhimento) of a debt on a day: what is due
//! that day (`debts::next_due`) as the FEBRABAN arrecadação barcode with its
//! linha digitável and as a static PIX BR Code, built by `outorga-guia` with
//! the jurisdiction's settings (its agreement and PIX key, recorded by an
//! administrator). The PDF of the slip calls the same.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::debts::{self, Key};
use crate::text::{TextKind, required};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::model::Rulebook;
use outorga_guia::{Convenio, PixPayee, ValueId};
use sqlx::Row;

/// What a jurisdiction's slips carry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PaymentSettings {
    /// FEBRABAN segment (1: prefeituras; 2: saneamento; …).
    pub segment: u8,
    /// The company's (organ's) identification in the agreement.
    pub company: String,
    /// The value identifier: 6 or 8 (effective value, módulo 10 or 11), 7 or 9 (reference).
    pub value_id: u8,
    pub pix_key: String,
    /// The beneficiary's name as the PIX shows it (≤ 25 characters).
    pub beneficiary: String,
    /// Its city (≤ 15 characters).
    pub city: String,
}

impl PaymentSettings {
    fn convenio(&self) -> Result<Convenio, StoreError> {
        let value_id = ValueId::from_digit(self.value_id).ok_or_else(|| StoreError::Invalid {
            field: "identificador_valor",
            reason: format!(
                "{} não é identificador de valor: 6 ou 8 (valor efetivo), 7 ou 9 (referência)",
                self.value_id
            ),
        })?;
        Ok(Convenio {
            segment: self.segment,
            company: self.company.clone(),
            value_id,
        })
    }

    fn payee(&self) -> PixPayee {
        PixPayee {
            key: self.pix_key.clone(),
            name: self.beneficiary.clone(),
            city: self.city.clone(),
        }
    }
}

/// A slip of a debt for the day it was asked for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Slip {
    pub due: debts::Due,
    /// What it charges, in centavos: what is due that day.
    pub cents: i64,
    /// Its due date: the day asked for (the value is the one due that day).
    pub due_on: NaiveDate,
    pub own_number: String,
    pub codigo_barras: String,
    pub linha_digitavel: String,
    /// The PIX BR Code ("copia e cola").
    pub pix: String,
}

fn invalid(field: &'static str, error: outorga_guia::GuiaError) -> StoreError {
    StoreError::Invalid {
        field,
        reason: error.to_string(),
    }
}

async fn settings_in(
    tx: &mut Tx,
    jurisdiction: &str,
) -> Result<Option<PaymentSettings>, StoreError> {
    let row = sqlx::query(
        "SELECT segment, company, value_id, pix_key, beneficiary, city FROM payment_settings \
         WHERE jurisdiction = $1",
    )
    .bind(jurisdiction)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| {
        let segment: i64 = row.try_get("segment")?;
        let value_id: i64 = row.try_get("value_id")?;
        Ok(PaymentSettings {
            segment: u8::try_from(segment).unwrap_or_default(),
            company: row.try_get("company")?,
            value_id: u8::try_from(value_id).unwrap_or_default(),
            pix_key: row.try_get("pix_key")?,
            beneficiary: row.try_get("beneficiary")?,
            city: row.try_get("city")?,
        })
    })
    .transpose()
}

impl Store {
    /// The jurisdiction's slip settings, when recorded.
    pub async fn payment_settings(
        &self,
        jurisdiction: &str,
    ) -> Result<Option<PaymentSettings>, StoreError> {
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let found = settings_in(&mut tx, jurisdiction).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// Records the jurisdiction's slip settings, checked by making a slip
    /// and a PIX with them.
    pub async fn set_payment_settings(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        settings: &PaymentSettings,
    ) -> Result<(), StoreError> {
        required("beneficiario", &settings.beneficiary, TextKind::Name)?;
        required("cidade", &settings.city, TextKind::Name)?;
        let convenio = settings.convenio()?;
        outorga_guia::barcode(&convenio, 1, None, "1").map_err(|e| {
            let field = match e {
                outorga_guia::GuiaError::Segmento(_) => "segmento",
                _ => "convenio",
            };
            invalid(field, e)
        })?;
        outorga_guia::pix(&settings.payee(), Some(1), "1").map_err(|e| {
            let field = match &e {
                outorga_guia::GuiaError::TextoPix { campo, .. } if campo.contains("cidade") => {
                    "cidade"
                }
                outorga_guia::GuiaError::TextoPix { campo, .. } if campo.contains("nome") => {
                    "beneficiario"
                }
                _ => "chave_pix",
            };
            invalid(field, e)
        })?;
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("payment_settings", [jurisdiction.into()])],
        )
        .await?;
        sqlx::query(
            "INSERT INTO payment_settings (jurisdiction, segment, company, value_id, pix_key, beneficiary, city) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (jurisdiction) DO UPDATE SET \
             segment = excluded.segment, company = excluded.company, value_id = excluded.value_id, \
             pix_key = excluded.pix_key, beneficiary = excluded.beneficiary, city = excluded.city",
        )
        .bind(jurisdiction)
        .bind(i64::from(settings.segment))
        .bind(&settings.company)
        .bind(i64::from(settings.value_id))
        .bind(&settings.pix_key)
        .bind(settings.beneficiary.trim())
        .bind(settings.city.trim())
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "payment.settings",
                jurisdiction: Some(jurisdiction),
                subject: &format!("payment_settings:{jurisdiction}"),
                detail: serde_json::to_value(settings).unwrap_or_default(),
                rows: vec![RowRef::new("payment_settings", [jurisdiction.into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The slip of the debt (or its next parcel) for `on`: what is due that
    /// day, due that day.
    pub async fn slip(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        on: NaiveDate,
    ) -> Result<Slip, StoreError> {
        let mut tx = self.pool.begin().await?;
        let settings = settings_in(&mut tx, jurisdiction).await?.ok_or_else(|| {
            StoreError::Invalid {
                field: "guia",
                reason: "a jurisdição ainda não tem convênio de arrecadação nem chave PIX: um administrador os registra em Administração › Pagamentos".into(),
            }
        })?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let debt = debts::one_debt(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        let due = debts::next_due(&ctx, &debt, on)?;
        let Some(brl) = due.brl.as_deref() else {
            return Err(StoreError::Invalid {
                field: "guia",
                reason: format!(
                    "o valor de {} em {} não está registrado: registre-o nas unidades fiscais para emitir a guia",
                    debt.unit,
                    on.format("%d/%m/%Y")
                ),
            });
        };
        let cents = debts::cents_of(brl)?;
        let own_number = debt.own_number();
        let unsigned =
            u64::try_from(cents).map_err(|_| StoreError::Corrupt(format!("amount {brl}")))?;
        let slip = outorga_guia::barcode(&settings.convenio()?, unsigned, Some(on), &own_number)
            .map_err(|e| invalid("guia", e))?;
        let pix = outorga_guia::pix(&settings.payee(), Some(unsigned), &own_number)
            .map_err(|e| invalid("pix", e))?;
        Ok(Slip {
            due,
            cents,
            due_on: on,
            own_number,
            codigo_barras: slip.codigo_barras,
            linha_digitavel: slip.linha_digitavel,
            pix,
        })
    }
}
