//! `outorga serve`: the HTTP API on the system of record.

use crate::db::{jurisdictions, open_synced, redacted, url_for};
use crate::rulebooks::{load, rulebooks_folder};
use anyhow::Context as _;
use outorga_rulebook::Library;
use outorga_store::{Change, Role, Scope, Store, StoreError};
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

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
        println!(
            "outorga serving on http://{address}/api (OpenAPI: http://{address}/api/openapi.json)"
        );
        let app = outorga_web::router(outorga_web::AppState::new(store, library));
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                // Without a signal handler the server runs until killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await
            .context("the server stopped")?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
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
    let report = store.load_demo(&rulebooks, now.date(), now).await?;
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
    Ok(())
}
