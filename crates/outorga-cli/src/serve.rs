//! `outorga serve`: the HTTP API on the system of record.

use crate::db::{jurisdictions, open_synced, redacted, url_for};
use crate::rulebooks::{load, rulebooks_folder};
use anyhow::Context as _;
use outorga_rulebook::Library;
use outorga_store::{Change, Role, Scope, Store, StoreError};
use outorga_web::client::Peers;
use outorga_web::{AppState, Limits};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// PostgreSQL (`postgres://…`) or SQLite (`sqlite://…`) URL (default:
    /// SQLite in the data folder).
    #[arg(long, env = "OUTORGA_DATABASE_URL")]
    pub database_url: Option<String>,
    /// The data folder for the default SQLite database.
    #[arg(long, default_value = "data")]
    pub data: PathBuf,
    /// Where the rulebooks are (default: $OUTORGA_RULEBOOKS, or a `rulebooks`
    /// folder in the current folder or above it).
    #[arg(long, env = "OUTORGA_RULEBOOKS")]
    pub rulebooks: Option<PathBuf>,
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Load demo records for each rulebook's jurisdiction (once) and demo
    /// users, one per role, whose password is printed.
    #[arg(long)]
    pub demo: bool,
    /// The server is reached only through a reverse proxy: take the client's
    /// address from the rightmost entry of X-Forwarded-For (the one the
    /// proxy wrote). Without this flag the header is ignored, since any
    /// client can write it.
    #[arg(long)]
    pub behind_proxy: bool,
    /// Where the public reaches this deployment (`https://transporte.cidade.gov.br`):
    /// the papers' QR codes and "confira em …" text point there (default:
    /// http://localhost:<port>).
    #[arg(long, env = "OUTORGA_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Minutes a session of the web pages may go unused before it ends
    /// (the user signs in again).
    #[arg(long, value_name = "MINUTES", env = "OUTORGA_IDLE_MINUTES",
          default_value_t = outorga_ui::Options::IDLE_MINUTES,
          value_parser = clap::value_parser!(u32).range(1..=1440))]
    pub idle_minutes: u32,
    /// The SMTP relay the e-mail reminders go through (`smtp://host:25`,
    /// `smtp://user:password@host:587?tls=required`, `smtps://host:465`);
    /// none: no reminders are sent.
    #[arg(long, env = "OUTORGA_SMTP_URL", requires = "mail_from")]
    pub smtp_url: Option<String>,
    /// The reminders' sender (`Transporte <transporte@cidade.gov.br>`).
    #[arg(long, env = "OUTORGA_MAIL_FROM")]
    pub mail_from: Option<String>,
    /// gov.br's Login Único for the holders' space: the provider
    /// (`https://sso.acesso.gov.br`, or `https://sso.staging.acesso.gov.br`);
    /// none: the space offers only the CPF and password. The provider sends
    /// the browser back to `<public-url>/titular/govbr/retorno`.
    #[arg(long, env = "OUTORGA_GOVBR_ISSUER", requires = "govbr_client_id")]
    pub govbr_issuer: Option<String>,
    /// The deployment's client id at gov.br.
    #[arg(long, env = "OUTORGA_GOVBR_CLIENT_ID")]
    pub govbr_client_id: Option<String>,
    /// The deployment's client secret at gov.br (in the environment, not on
    /// the command line).
    #[arg(long, env = "OUTORGA_GOVBR_CLIENT_SECRET", hide_env_values = true)]
    pub govbr_client_secret: Option<String>,
    /// Minutes between two rounds of reminders (the first at start).
    #[arg(long, value_name = "MINUTES", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=1440))]
    pub reminders_every: u64,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The server's limits ([`Limits`]), each with its default.
#[derive(Debug, clap::Args)]
pub struct LimitArgs {
    /// Seconds a client has to send a request's headers (from connecting,
    /// or from the previous answer: also how long an idle kept-alive
    /// connection stays open).
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::DEFAULT.header_read_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Seconds a request may take once its headers are in (503 past it).
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::DEFAULT.request_timeout.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout: u64,
    /// The largest request body, in KiB (413 past it).
    #[arg(long, value_name = "KIB", default_value_t = Limits::DEFAULT.body_bytes / 1024,
          value_parser = at_least_one)]
    pub max_body_kib: usize,
    /// Open connections at most, in all.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.connections,
          value_parser = at_least_one)]
    pub max_connections: usize,
    /// Open connections at most from one client address (not applied with
    /// --behind-proxy).
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.connections_per_client,
          value_parser = at_least_one)]
    pub max_connections_per_client: usize,
    /// Public look-ups a client may make at once…
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.public_burst)]
    pub public_burst: NonZeroU32,
    /// …and then per second.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.public_per_second)]
    pub public_per_second: NonZeroU32,
    /// Public filings (passengers' complaints) a client may make at once…
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.filing_burst)]
    pub filing_burst: NonZeroU32,
    /// …and then per hour.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.filings_per_hour)]
    pub filings_per_hour: NonZeroU32,
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number of at least 1".into()),
    }
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        Limits {
            header_read_timeout: Duration::from_secs(self.header_timeout),
            request_timeout: Duration::from_secs(self.request_timeout),
            body_bytes: self.max_body_kib.saturating_mul(1024),
            connections: self.max_connections,
            connections_per_client: self.max_connections_per_client,
            public_burst: self.public_burst,
            public_per_second: self.public_per_second,
            filing_burst: self.filing_burst,
            filings_per_hour: self.filings_per_hour,
        }
    }
}

/// Opens and syncs the database like `db init`, prepares it (see
/// [`prepare`]) and serves until interrupted.
pub fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let folder = rulebooks_folder(args.rulebooks)?;
    let library = match load(&folder) {
        Ok(library) => library,
        Err(code) => return Ok(code),
    };
    let url = url_for(args.database_url, &args.data)?;
    request_log();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server runtime")?;
    runtime.block_on(async {
        let store =
            open_synced(&url, &args.data, &jurisdictions(&library), "outorga serve").await?;
        if args.demo {
            demo(&store, &library).await?;
        }
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", args.bind, args.port))?;
        let address = listener.local_addr().context("no local address")?;
        println!("database: {}", redacted(&url));
        // One line, the last printed: a reader may stop reading after it.
        println!(
            "outorga serving on http://{address}/ (entre em /entrar; API em /api, OpenAPI em /api/openapi.json)"
        );
        crate::anchor::record(&store, &args.data).await?;
        tokio::spawn(crate::anchor::watch(store.clone(), args.data.clone()));
        let public_url = args
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://localhost:{}", address.port()));
        if !(public_url.starts_with("https://") || public_url.starts_with("http://")) {
            anyhow::bail!(
                "--public-url `{public_url}` não é um endereço: comece com https:// (como https://transporte.cidade.gov.br)"
            );
        }
        let mailer = match (&args.smtp_url, &args.mail_from) {
            (Some(url), Some(from)) => Some(crate::mail::Mailer::new(url, from)?),
            _ => None,
        };
        let state = AppState::new(store, library)
            .with_limits(args.limits.limits())
            .with_public_url(&public_url);
        if let Some(mailer) = mailer {
            tokio::spawn(crate::mail::run(
                state.store.clone(),
                state.library.clone(),
                mailer,
                public_url.clone(),
                Duration::from_secs(args.reminders_every * 60),
            ));
        }
        let peers = if args.behind_proxy {
            Peers::TrustedProxy
        } else {
            Peers::Clients
        };
        // Made once, for the process's life.
        let govbr: Option<&'static outorga_ui::GovBr> =
            match (&args.govbr_issuer, &args.govbr_client_id) {
                (Some(issuer), Some(client_id)) => Some(Box::leak(Box::new(outorga_ui::GovBr {
                    issuer: issuer.clone(),
                    client_id: client_id.clone(),
                    client_secret: args.govbr_client_secret.clone(),
                    redirect: format!("{public_url}/titular/govbr/retorno"),
                }))),
                _ => None,
            };
        let pages = outorga_ui::routes(outorga_ui::Options {
            demo: args.demo,
            idle_minutes: args.idle_minutes,
            govbr,
        });
        outorga_web::server::serve(listener, (state, pages), peers, async {
            // Without a signal handler the server runs until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// One line per request on standard error (method, route template,
/// status, latency, user: see `outorga_web::observe`).
fn request_log() {
    // Set once per process; a second call (there is none) would keep the first.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::INFO)
        .try_init();
}

/// The password of the demo users (a demo is not a deployment).
const DEMO_PASSWORD: &str = "demonstracao";

/// Demo users (one per role) and records, made once: a second start finds
/// them and leaves them as they are.
async fn demo(store: &Store, library: &Library) -> anyhow::Result<()> {
    let now = chrono::Utc::now().naive_utc();
    let change = Change {
        by: "outorga serve --demo",
        at: now,
        why: "usuários de demonstração",
    };
    for role in Role::ALL {
        match store
            .create_user(&change, role.code(), role, DEMO_PASSWORD, &Scope::All)
            .await
        {
            Ok(_) | Err(StoreError::Taken { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let rulebooks: Vec<_> = library.rulebooks().collect();
    // The demo's "today": the earliest local date among the jurisdictions
    // (never a day the law would call the future in one of them).
    let today = rulebooks
        .iter()
        .map(|r| r.jurisdiction.today(now))
        .min()
        .unwrap_or(now.date());
    let report = store.load_demo(&rulebooks, today, now).await?;
    println!(
        "demo: {} people, {} permits, {} autos; users {} (password `{DEMO_PASSWORD}`)",
        report.people,
        report.permits,
        report.autos,
        Role::ALL.map(Role::code).join(", ")
    );
    for refusal in &report.refused {
        println!("  recusado pela lei: {refusal}");
    }
    // The first holder's own space, its password set as a holder sets it:
    // with a first-access code printed for them.
    if let Some((j, holder)) = outorga_store::demo_holder(&rulebooks)
        && store.registered(&j, &holder).await?.is_some()
        && !store.has_citizen_account(&holder).await?
    {
        let code = store.issue_access_code(&change, &j, &holder).await?;
        let local = std::net::IpAddr::from([127, 0, 0, 1]);
        store
            .first_access(&holder, &code.code, DEMO_PASSWORD, (local, now))
            .await?;
        println!("demo: espaço do titular: CPF {holder}, senha `{DEMO_PASSWORD}`");
    }
    Ok(())
}
