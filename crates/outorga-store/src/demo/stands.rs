//! The demo's fixed stands where the law fills a vacancy by draw and lets
//! holders swap (Canguçu art. 15–16), loaded through the workflows: three stands set by decree and an event's
//! provisional one; the taxis designated ten months ago, one place of the
//! square left vacant and filled two weeks ago by a public draw (the list
//! closed the day before the federal lottery gave the seed), whose result
//! anyone recomputes on its public page; and a swap two holders asked for
//! with the class entity's consent, waiting for the department's decision.

use crate::audit::Change;
use crate::{Designation, DrawInput, Stand, Store, StoreError, SwapRequest};
use chrono::{Days, NaiveDate};
use outorga_core::model::Rulebook;

/// The demo's seed: the five prizes of a federal lottery draw.
pub const SEED: &str = "48213 09377 61502 33718 90264";

fn on<'a>(change: &Change<'a>, day: NaiveDate) -> Change<'a> {
    Change {
        at: day.and_hms_opt(15, 0, 0).unwrap_or(change.at),
        ..*change
    }
}

fn before(today: NaiveDate, days: u64) -> NaiveDate {
    today.checked_sub_days(Days::new(days)).unwrap_or(today)
}

impl Store {
    /// Loads the stands of `rulebook`'s law, if it has them with draws and
    /// swaps; what the law refuses is noted in `refused`.
    pub(crate) async fn demo_stands(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        (jurisdiction, today): (&str, NaiveDate),
        refused: &mut Vec<String>,
    ) -> Result<(), StoreError> {
        let Some(rules) = &rulebook.stands else {
            return Ok(());
        };
        if rules.lottery.is_none() || rules.swap_consent.is_none() {
            return Ok(());
        }
        let mut note = |what: &str, e: StoreError| {
            refused.push(format!("{}: {what}: {e}", rulebook.id));
        };
        let set_up = on(change, before(today, 300));
        for (code, name, places) in [
            ("PRACA", "Praça Dr. Carlos Barbosa", 3),
            ("RODO", "Estação Rodoviária", 2),
            ("HOSP", "Hospital de Caridade", 2),
        ] {
            let mut stand = Stand::new(code, name, Some(places));
            stand.act = Some("Decreto Municipal nº 41/2025".into());
            if let Err(e) = self.register_stand(&set_up, jurisdiction, &stand).await {
                note(&format!("ponto {code}"), e);
            }
        }
        let mut festa = Stand::new("FESTA", "Expofeira de Canguçu (provisório)", None);
        festa.act = Some("Portaria nº 88/2026".into());
        festa.opens_on = today.checked_add_days(Days::new(20));
        festa.closes_on = today.checked_add_days(Days::new(23));
        if let Err(e) = self.register_stand(&set_up, jurisdiction, &festa).await {
            note("ponto provisório", e);
        }
        for (service, number, stand) in [
            ("taxi", 1, "PRACA"),
            ("taxi", 2, "PRACA"),
            ("taxi", 3, "RODO"),
            ("taxi", 4, "HOSP"),
            ("taxi_acessivel", 1, "HOSP"),
        ] {
            let designation = Designation {
                service: service.into(),
                number,
                stand: stand.into(),
                act: "Portaria nº 12/2026".into(),
                grounds: String::new(),
                request: None,
            };
            if let Err(e) = self
                .designate_stand(&set_up, rulebook, jurisdiction, &designation)
                .await
            {
                note(&format!("ponto da permissão {service} nº {number}"), e);
            }
        }
        // The square's third place, filled by a public draw among the
        // holders who asked to move there (art. 15, § 4º).
        let drawn_on = before(today, 14);
        let input = DrawInput {
            stand: "PRACA".into(),
            seed_source: format!(
                "Loteria Federal, extração de {}: os cinco prêmios, na ordem",
                drawn_on.format("%d/%m/%Y")
            ),
            seed_on: drawn_on,
        };
        let draw = match self
            .open_stand_draw(
                &on(change, before(today, 24)),
                rulebook,
                jurisdiction,
                &input,
            )
            .await
        {
            Ok(draw) => draw,
            Err(e @ (StoreError::Invalid { .. } | StoreError::Engine(_))) => {
                note("sorteio da vaga da praça", e);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let key = (draw.year, draw.number);
        for (service, number) in [("taxi", 3), ("taxi", 4), ("taxi_acessivel", 1)] {
            if let Err(e) = self
                .enter_draw(
                    &on(change, before(today, 20)),
                    rulebook,
                    jurisdiction,
                    key,
                    (service, number),
                )
                .await
            {
                note(&format!("inscrição de {service} nº {number}"), e);
            }
        }
        let steps = async {
            self.close_draw(&on(change, before(today, 15)), rulebook, jurisdiction, key)
                .await?;
            self.run_draw(&on(change, drawn_on), rulebook, jurisdiction, key, SEED)
                .await
        };
        if let Err(e) = steps.await {
            note("sorteio da vaga da praça", e);
        }
        // Two holders ask to swap, with the class entity's consent: the
        // department decides.
        let swap = SwapRequest {
            service: "taxi".into(),
            a: 1,
            b: 4,
            consent: Some(("Sindicato dos Taxistas de Canguçu".into(), before(today, 4))),
        };
        if let Err(e) = self
            .request_stand_swap(&on(change, before(today, 3)), rulebook, jurisdiction, &swap)
            .await
        {
            note("pedido de permuta", e);
        }
        Ok(())
    }
}
