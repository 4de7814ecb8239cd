//! Request lines too long for the HTTP parser, answered in JSON.
//!
//! hyper refuses a request line whose target is over about 64 KiB with a
//! bare 414 and no body, before any route sees it. [`LineLimit`] wraps
//! each connection the server accepts and reads its request lines first:
//! one longer than [`LIMIT`] bytes is handed on as a request for
//! [`TOO_LONG_PATH`] (the rest of the line dropped, its headers kept), a
//! route that answers 414 with `{"error": ...}` like every other error of
//! the API. Every other byte passes through unchanged, in order.
//!
//! A request line is the first line of a connection and the first after
//! each empty line (the end of a request's headers). The API answers GET
//! only, whose requests have no body; a body sent with another method
//! (answered 405) is read as lines too, and one over the limit is then
//! rewritten: that connection's next answer may be a 400 instead.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The longest request line handed on as it is, in bytes (hyper's own
/// limit on the target is 65,534 bytes).
pub(super) const LIMIT: usize = 60 * 1024;

/// The path a request line over [`LIMIT`] is handed on as.
pub(super) const TOO_LONG_PATH: &str = "/api/v1/request-line-too-long";

/// A listener whose connections are [`LineLimit`]ed.
pub(super) struct Limited(pub(super) TcpListener);

impl axum::serve::Listener for Limited {
    type Io = LineLimit<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (LineLimit::new(io), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// Where the reader stands in the stream of requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// In a request line: its bytes are held in `line`.
    RequestLine,
    /// Dropping the rest of a request line over the limit.
    Dropping,
    /// In the headers, `n` bytes into the current line (a `\r` not
    /// counted).
    Headers { n: usize },
}

/// A connection whose over-long request lines are rewritten (see the
/// module documentation).
pub(super) struct LineLimit<S> {
    inner: S,
    state: State,
    /// The request line read so far.
    line: Vec<u8>,
    /// Bytes ready to hand on, from `at`.
    ready: Vec<u8>,
    at: usize,
}

impl<S> LineLimit<S> {
    /// Wrap `inner`, at the start of a connection.
    pub(super) fn new(inner: S) -> LineLimit<S> {
        LineLimit {
            inner,
            state: State::RequestLine,
            line: Vec::new(),
            ready: Vec::new(),
            at: 0,
        }
    }

    /// Take `bytes` read from the connection into `ready`.
    fn take(&mut self, bytes: &[u8]) {
        for &b in bytes {
            match self.state {
                State::RequestLine => {
                    self.line.push(b);
                    if b == b'\n' {
                        self.ready.append(&mut self.line);
                        self.state = State::Headers { n: 0 };
                    } else if self.line.len() > LIMIT {
                        self.line.clear();
                        self.ready.extend_from_slice(
                            format!("GET {TOO_LONG_PATH} HTTP/1.1\r\n").as_bytes(),
                        );
                        self.state = State::Dropping;
                    }
                }
                State::Dropping => {
                    if b == b'\n' {
                        self.state = State::Headers { n: 0 };
                    }
                }
                State::Headers { n } => {
                    self.ready.push(b);
                    self.state = match b {
                        b'\n' if n == 0 => State::RequestLine,
                        b'\n' => State::Headers { n: 0 },
                        b'\r' => State::Headers { n },
                        _ => State::Headers { n: n + 1 },
                    };
                }
            }
        }
    }

    /// The bytes ready to hand on.
    fn pending(&self) -> &[u8] {
        &self.ready[self.at..]
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for LineLimit<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut chunk = [0u8; 8192];
        while this.pending().is_empty() {
            this.ready.clear();
            this.at = 0;
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) if read.filled().is_empty() => {
                    // The end of the stream: a partial line goes on as
                    // it is.
                    this.ready.append(&mut this.line);
                    if this.ready.is_empty() {
                        return Poll::Ready(Ok(()));
                    }
                }
                Poll::Ready(Ok(())) => {
                    let filled = read.filled().to_vec();
                    this.take(&filled);
                }
                other => return other,
            }
        }
        let n = this.pending().len().min(buf.remaining());
        buf.put_slice(&this.pending()[..n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for LineLimit<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `input` reads as through a [`LineLimit`], fed in pieces of
    /// `piece` bytes (every read ready at once: polled without a runtime).
    fn through(input: &[u8], piece: usize) -> Vec<u8> {
        struct Pieces(Vec<u8>, usize, usize);
        impl AsyncRead for Pieces {
            fn poll_read(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
                buf: &mut ReadBuf<'_>,
            ) -> Poll<io::Result<()>> {
                let this = self.get_mut();
                let n = this.1.min(this.0.len() - this.2).min(buf.remaining());
                buf.put_slice(&this.0[this.2..this.2 + n]);
                this.2 += n;
                Poll::Ready(Ok(()))
            }
        }
        let mut l = LineLimit::new(Pieces(input.to_vec(), piece, 0));
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let (mut out, mut buf) = (Vec::new(), [0u8; 5000]);
        loop {
            let mut rb = ReadBuf::new(&mut buf);
            match Pin::new(&mut l).poll_read(&mut cx, &mut rb) {
                Poll::Ready(Ok(())) if rb.filled().is_empty() => return out,
                Poll::Ready(Ok(())) => out.extend_from_slice(rb.filled()),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn short_lines_pass_and_a_long_request_line_is_rewritten() {
        let short = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: y\r\n\r\n";
        for piece in [1, 7, 8192] {
            assert_eq!(through(short, piece), short.to_vec(), "{piece}");
        }
        // The second request's line over the limit: rewritten, its
        // headers and the requests after it kept.
        let long = format!(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /q?p={} HTTP/1.1\r\nHost: y\r\n\r\nGET /c HTTP/1.1\r\n\r\n",
            "S".repeat(LIMIT + 10)
        );
        let want = format!(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET {TOO_LONG_PATH} HTTP/1.1\r\nHost: y\r\n\r\nGET /c HTTP/1.1\r\n\r\n"
        );
        for piece in [1000, 8192, 100_000] {
            assert_eq!(
                String::from_utf8(through(long.as_bytes(), piece)).unwrap(),
                want,
                "{piece}"
            );
        }
        // A line of the limit exactly passes; a header line of any length
        // too (hyper judges those).
        let at = format!("G{}\n", "x".repeat(LIMIT - 2));
        assert_eq!(through(at.as_bytes(), 4096), at.as_bytes().to_vec());
        let header = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "h".repeat(2 * LIMIT));
        assert_eq!(through(header.as_bytes(), 4096), header.as_bytes().to_vec());
        // A stream that ends inside a line hands that line on.
        assert_eq!(through(b"GET /par", 3), b"GET /par".to_vec());
    }
}
