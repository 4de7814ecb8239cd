//! `asalto serve`: its arguments, the tokio runtime, the URL printed, and
//! stopping on Ctrl-C. The server itself is the library's
//! [`asalto_tb::serve`].

use super::{THREADS_HELP, VARIANT_HELP, check_tables_dir, parse_threads};
use anyhow::{Context, Result};
use asalto_tb::{Variant, serve};
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// How long requests still running after Ctrl-C may take to finish.
const GRACE: Duration = Duration::from_secs(2);

/// The arguments of `asalto serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Folder of table files.
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// The variant of requests that name none, and the page's first.
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
    variant: String,
    /// Address to listen on: this machine only unless told otherwise
    /// (0.0.0.0 or :: for every interface).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Port (0: any free port; the URL printed says which).
    #[arg(long, short, default_value_t = 8080)]
    port: u16,
    #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
    threads: usize,
    /// The most positions solved in memory at once (tests and
    /// experiments; default that of asalto query, 3e9).
    #[arg(long, value_name = "POSITIONS", hide = true)]
    limit: Option<u64>,
}

/// A future that completes on Ctrl-C (SIGINT) or SIGTERM, listening from
/// the call on (inside the runtime).
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

/// Serve until Ctrl-C.
pub fn run(args: ServeArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    check_tables_dir(&args.tables)?;
    let options = serve::Options {
        tables: args.tables.clone(),
        variant,
        threads: args.threads,
        limit: args.limit.unwrap_or(asalto_tb::ondemand::MAX_IN_MEMORY),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    let served = runtime.block_on(async {
        let at = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(at)
            .await
            .with_context(|| format!("cannot listen on {at}"))?;
        let addr = listener.local_addr().context("the address listened on")?;
        if !addr.ip().is_loopback() {
            errln!(
                "note: listening on {} (not this machine only): whoever reaches it can query and load it",
                addr.ip()
            );
        }
        let (stop, mut stopping) = tokio::sync::watch::channel(false);
        let signal = stop_signal().context("cannot listen for Ctrl-C")?;
        let signal = async move {
            signal.await;
            let _ = stop.send(true);
        };
        // Printed once Ctrl-C is listened for: from then on it stops cleanly.
        outln!(
            "asalto serve: http://{addr}/ (tables under {}, variant {variant}; Ctrl-C stops)",
            args.tables.display()
        );
        let grace = async move {
            let _ = stopping.wait_for(|s| *s).await;
            tokio::time::sleep(GRACE).await;
        };
        tokio::select! {
            served = serve::serve(listener, options, signal) => served?,
            () = grace => errln!("requests still running {GRACE:?} after Ctrl-C: left unanswered"),
        }
        anyhow::Ok(())
    });
    // A solve still running is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served?;
    errln!("asalto serve: stopped");
    Ok(())
}
