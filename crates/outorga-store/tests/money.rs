//! Money on the demo's records, on both backends (issue 13): a Teófilo
//! Otoni grant charged its yearly management cost (art. 103, I) with its
//! due date (art. 103, § 1º, 30 days by default); the slip of that debt
//! validates (barcode, line and PIX CRC, `outorga-guia`) and paying it by
//! the slip settles it once: a second payment is refused.

mod common;

use common::{by, drop_schema, library, pg_schema, with_demo};
use outorga_store::{DebtFilter, Means, Origin, PaymentInput, StoreError, Window, sqlite_url};

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
