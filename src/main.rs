//! The `asalto` binary: thin glue over the `asalto_tb` library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
