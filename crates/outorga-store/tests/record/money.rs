//! Money on the demo's records, on both backends (issue 13): a Teófilo
//! Otoni grant charged its yearly management cost (art. 103, I) with its
//! due date (art. 103, § 1º, 30 days by default); the slip of that debt
//! validates (barcode, line and PIX CRC, `outorga-guia`) and paying it by
//! the slip settles it once: a second payment is refused. A bank's return
//! file pays the slips it names, reports every line it cannot match, turns
//! a slip paid after its debt was settled into a credit, and is imported
//! once; a refund is due 30 days from its request (art. 96, § 3º) and is on
//! the agenda; the reports count the revenue and list the overdue debts; a
//! fee is charged by hand at the law's reduction (art. 103, § 2º); a
//! second copy of a document charges its fee (art. 103, IV); a fee is
//! never split (art. 97 splits fines).

use crate::common::{by, drop_schema, library, pg_schema, with_demo};
use chrono::Days;
use outorga_guia::{Header, Paid};
use outorga_store::{
    DebtFilter, DocumentFilter, FeeCharge, Means, Origin, PaymentInput, RefundGround, StoreError,
    Window, sqlite_url,
};

const TO: &str = "teofilo-otoni";

async fn fee_slip_payment(url: &str) {
    let library = library();
    let store = with_demo(url, &library).await;
    let debts = store
        .debts(TO, &DebtFilter::default(), Window::first(200))
        .await
        .expect("debts")
        .items;
    let cgo = debts
        .iter()
        .find(|d| d.origin == Origin::Fee && d.fee.as_deref() == Some("cgo"))
        .expect("a grant charged its CGO");
    assert_eq!((cgo.unit.as_str(), cgo.quantity.as_str()), ("UPFTO", "100"));
    assert_eq!(cgo.article.as_deref(), Some("Art. 103, I"));
    assert_eq!(cgo.seq, 0);
    assert_eq!(
        cgo.due_on,
        cgo.issued_on + chrono::Days::new(30),
        "art. 103, § 1º: 30 calendar days (decree default)"
    );
    // 100 UPFTO at the law's own value (art. 103, I: R$ 179,78).
    assert_eq!(cgo.brl_on_issue.as_deref(), Some("179.78"));
    let rulebook = library
        .rulebooks()
        .find(|r| r.id == cgo.rulebook)
        .expect("rulebook");
    let key = (cgo.year, cgo.number, cgo.seq);
    let on = by().at.date();
    let slip = store.slip(rulebook, TO, key, on).await.expect("slip");
    outorga_guia::check(&slip.codigo_barras).expect("barcode check digits");
    assert_eq!(
        outorga_guia::check_line(&slip.linha_digitavel).expect("line"),
        slip.codigo_barras
    );
    let (payload, crc) = slip.pix.split_at(slip.pix.len() - 4);
    assert_eq!(outorga_guia::crc16(payload), crc);
    assert!(slip.pix.contains(&cgo.own_number()), "txid: {}", slip.pix);
    assert!(slip.codigo_barras.ends_with(&cgo.own_number()));
    let paid = PaymentInput {
        on,
        means: Means::Guia,
        cents: Some(slip.cents),
        receipt: Some("BANCO-0001".into()),
    };
    store
        .pay_debt(&by(), rulebook, TO, key, &paid)
        .await
        .expect("paid by the slip");
    let again = store.pay_debt(&by(), rulebook, TO, key, &paid).await;
    assert!(
        matches!(&again, Err(StoreError::Invalid { reason, .. }) if reason.contains("quitado")),
        "{again:?}"
    );
    let debt = store.debt(TO, key).await.expect("debt");
    assert!(debt.settled());
    assert_eq!(debt.payments[0].receipt.as_deref(), Some("BANCO-0001"));
    assert_eq!(debt.payments[0].cents, Some(slip.cents));

    // A bank's return: two other CGOs paid by their slips, one of them
    // twice in the file, the one already settled, a slip of another
    // agreement and one whose debt does not exist.
    let others: Vec<_> = debts
        .iter()
        .filter(|d| d.origin == Origin::Fee && d.fee.as_deref() == Some("cgo"))
        .filter(|d| (d.year, d.number, d.seq) != key)
        .take(2)
        .collect();
    assert_eq!(others.len(), 2, "the demo grants several TO permits");
    let mut codes = Vec::new();
    for other in &others {
        let slip = store
            .slip(rulebook, TO, (other.year, other.number, other.seq), on)
            .await
            .expect("slip");
        codes.push((slip.codigo_barras, slip.cents));
    }
    let settings = store
        .payment_settings(TO)
        .await
        .expect("settings")
        .expect("demo");
    let foreign = outorga_guia::barcode(
        &outorga_guia::Convenio {
            segment: 1,
            company: "9999".into(),
            value_id: outorga_guia::ValueId::EffectiveMod10,
        },
        1000,
        Some(on),
        &cgo.own_number(),
    )
    .expect("foreign slip");
    let missing = outorga_guia::barcode(
        &outorga_guia::Convenio {
            segment: 1,
            company: settings.company.clone(),
            value_id: outorga_guia::ValueId::EffectiveMod10,
        },
        1000,
        Some(on),
        "20309999999901",
    )
    .expect("slip of no debt");
    let paid_slip = |codigo: &str, cents: u64, nsr: u32| Paid {
        line: 0,
        account: "0001".into(),
        paid_on: on,
        credited_on: on,
        codigo_barras: codigo.to_string(),
        cents,
        tariff_cents: 0,
        nsr,
        agency: "00010001".into(),
        capture: '1',
        authentication: format!("AUT{nsr}"),
        payment_form: 1,
    };
    let header = Header {
        convenio: settings.company.clone(),
        company: "PREFEITURA".into(),
        bank_code: 1,
        bank_name: "BANCO DO BRASIL".into(),
        file_date: on,
        nsa: 7,
        layout_version: 5,
    };
    let cents = |c: i64| u64::try_from(c).expect("cents");
    let file = outorga_guia::write_return(
        &header,
        &[
            paid_slip(&codes[0].0, cents(codes[0].1), 1),
            paid_slip(&codes[1].0, cents(codes[1].1), 2),
            paid_slip(&codes[1].0, cents(codes[1].1), 3),
            paid_slip(&slip.codigo_barras, cents(slip.cents), 4),
            paid_slip(&foreign.codigo_barras, 1000, 5),
            paid_slip(&missing.codigo_barras, 1000, 6),
        ],
    )
    .expect("return file");
    let rulebooks: Vec<_> = library.rulebooks().collect();
    let report = store
        .import_return(&by(), &rulebooks, TO, &file)
        .await
        .expect("return imported");
    assert_eq!(report.paid.len(), 2, "{report:?}");
    // The second line of the same slip, and the slip of the debt settled
    // at the counter: credits, never a second payment.
    assert_eq!(
        report.credited.iter().map(|c| c.0).collect::<Vec<_>>(),
        [4, 5],
        "{report:?}"
    );
    assert_eq!(
        report.unmatched.iter().map(|u| u.0).collect::<Vec<_>>(),
        [6, 7],
        "{report:?}"
    );
    assert!(report.unmatched[0].1.contains("9999"), "{report:?}");
    for other in &others {
        let debt = store
            .debt(TO, (other.year, other.number, other.seq))
            .await
            .expect("debt");
        assert!(debt.settled());
        assert_eq!(debt.payments.len(), 1);
        assert_eq!(debt.payments[0].means, Some(Means::Guia));
    }
    let again = store.import_return(&by(), &rulebooks, TO, &file).await;
    assert!(matches!(again, Err(StoreError::Taken { .. })), "{again:?}");
    let garbage = store
        .import_return(&by(), &rulebooks, TO, "não é um retorno")
        .await;
    assert!(
        matches!(
            &garbage,
            Err(StoreError::Invalid {
                field: "arquivo",
                ..
            })
        ),
        "{garbage:?}"
    );

    // A refund of the CGO paid at the counter and by the bank: due 30 days
    // from the request (art. 96, § 3º), on the agenda until paid back.
    let refund = store
        .request_refund(
            &by(),
            rulebook,
            TO,
            key,
            (on, RefundGround::PaidTwice, None),
        )
        .await
        .expect("refund asked");
    assert_eq!(refund.due_by, on + Days::new(30));
    assert_eq!(refund.article.as_deref(), Some("Art. 96, § 3º"));
    assert_eq!(refund.cents, slip.cents);
    let twice = store
        .request_refund(
            &by(),
            rulebook,
            TO,
            key,
            (on, RefundGround::PaidTwice, None),
        )
        .await;
    assert!(matches!(twice, Err(StoreError::Taken { .. })), "{twice:?}");
    let agenda = store
        .agenda(TO, &[rulebook], (on, 31), Window::first(500))
        .await
        .expect("agenda")
        .items;
    assert!(
        agenda
            .iter()
            .any(|i| i.kind == "refund" && i.due == refund.due_by),
        "{agenda:?}"
    );
    let back = store
        .refund_paid(
            &crate::common::on(on + Days::new(10)),
            rulebook,
            TO,
            key,
            on + Days::new(10),
        )
        .await
        .expect("refunded");
    assert_eq!(back.refunded_on, Some(on + Days::new(10)));

    // The reports: the month's revenue from fees; the CGOs left unpaid are
    // overdue after their 30 days.
    let revenue = store.revenue(TO, (on, on)).await.expect("revenue");
    let fees: i64 = revenue
        .iter()
        .filter(|r| r.origin == "fee")
        .map(|r| r.cents)
        .sum();
    assert_eq!(fees, slip.cents + codes[0].1 + codes[1].1);
    let csv = outorga_store::revenue_csv(&revenue);
    assert!(
        csv.starts_with("mes;origem;taxa;pagamentos;reais\n"),
        "{csv}"
    );
    let settled_now = [
        key,
        (others[0].year, others[0].number, others[0].seq),
        (others[1].year, others[1].number, others[1].seq),
    ];
    let mut unpaid: Vec<String> = debts
        .iter()
        .filter(|d| d.origin == Origin::Fee && !settled_now.contains(&(d.year, d.number, d.seq)))
        .map(|d| d.own_number())
        .collect();
    let late = store
        .overdue_debts(TO, cgo.due_on + Days::new(1))
        .await
        .expect("overdue");
    let mut late_fees: Vec<String> = late
        .iter()
        .filter(|o| o.own_number.ends_with("00"))
        .map(|o| o.own_number.clone())
        .collect();
    unpaid.sort();
    late_fees.sort();
    assert_eq!(late_fees, unpaid, "{late:?}");
    assert!(late.iter().all(|o| o.own_number != cgo.own_number()));

    // A fee no event charges, by hand: a transfer to an auxiliary of 30
    // months (art. 103, § 2º, b: 230 UPFTO instead of 460); never split.
    let transfer = store
        .charge_fee(
            &by(),
            rulebook,
            TO,
            &FeeCharge {
                kind: "transfer".into(),
                debtor: cgo.debtor.clone(),
                permit: cgo.permit,
                on,
                months_worked: Some(30),
            },
        )
        .await
        .expect("fee charged");
    assert_eq!(transfer.quantity, "230");
    assert_eq!(transfer.article.as_deref(), Some("Art. 103, § 2º, b"));
    let split = store
        .split_debt(
            &by(),
            rulebook,
            TO,
            (transfer.year, transfer.number, transfer.seq),
            (4, on),
        )
        .await;
    assert!(
        matches!(split, Err(StoreError::Refused { .. })),
        "{split:?}"
    );
    let unknown = store
        .charge_fee(
            &by(),
            rulebook,
            TO,
            &FeeCharge {
                kind: "parking".into(),
                debtor: cgo.debtor.clone(),
                permit: None,
                on,
                months_worked: None,
            },
        )
        .await;
    assert!(matches!(unknown, Err(StoreError::Engine(_))), "{unknown:?}");

    // A second copy of a valid document: a new code, the old one cancelled,
    // its fee charged to the holder (art. 103, IV: 6 UPFTO).
    let documents = store
        .documents(
            TO,
            &DocumentFilter {
                holder: Some(cgo.debtor.clone()),
                ..DocumentFilter::default()
            },
            Window::first(50),
        )
        .await
        .expect("documents")
        .items;
    let valid = documents
        .iter()
        .find(|d| d.valid_on(on))
        .expect("a valid document of the holder");
    let copy = store
        .second_copy(&by(), rulebook, TO, (&valid.code, on))
        .await
        .expect("second copy");
    assert_ne!(copy.code, valid.code);
    assert_eq!(copy.valid_until, valid.valid_until);
    let old = store
        .document(&valid.code)
        .await
        .expect("read")
        .expect("old");
    assert_eq!(old.cancelled_on, Some(on));
    let charged = store
        .debts(
            TO,
            &DebtFilter {
                debtor: Some(cgo.debtor.clone()),
                ..DebtFilter::default()
            },
            Window::first(200),
        )
        .await
        .expect("debts")
        .items;
    assert!(
        charged
            .iter()
            .any(|d| d.fee.as_deref() == Some("second_copy") && d.quantity == "6"),
        "{charged:?}"
    );
    let cancelled = store
        .second_copy(&by(), rulebook, TO, (&valid.code, on))
        .await;
    assert!(
        matches!(cancelled, Err(StoreError::Invalid { .. })),
        "{cancelled:?}"
    );
}

#[tokio::test]
async fn fee_slip_payment_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = sqlite_url(dir.path()).expect("url");
    fee_slip_payment(&url).await;
}

#[tokio::test]
async fn fee_slip_payment_postgres() {
    let (schema, url) = pg_schema("money").await;
    fee_slip_payment(&url).await;
    drop_schema(&schema).await;
}
