//! `outorga serve`: the HTTP API on the system of record.

use crate::db::{jurisdictions, open_synced, redacted, url_for};
use crate::rulebooks::{load, rulebooks_folder};
use anyhow::Context as _;
use outorga_rulebook::Library;
use outorga_store::Store;
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
        let store = open_synced(&url, &jurisdictions(&library), "outorga serve").await?;
        prepare(&store, &library).await?;
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

/// What runs between opening the database and serving: the place for a
/// demo-data loader (`--demo`), which must be idempotent.
async fn prepare(_store: &Store, _library: &Library) -> anyhow::Result<()> {
    Ok(())
}
