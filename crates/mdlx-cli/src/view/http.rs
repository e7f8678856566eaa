//! Just enough HTTP/1.1 for a page on the local machine: one request per connection
//! (`Connection: close`), GET only, a bounded request head, a bounded number of connections
//! at once, and the `Host` header checked so that a web page elsewhere cannot reach the
//! server through a name that resolves to 127.0.0.1 (DNS rebinding).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The longest request head read (request line and headers), in bytes.
pub(crate) const MAX_HEAD: usize = 16 * 1024;
/// Connections served at once; more are answered 503 and closed.
const MAX_CONNECTIONS: usize = 64;

/// A request: its path and decoded query.
#[derive(Debug)]
pub(crate) struct Request {
    /// The path, percent-decoded (`/frame.png`).
    pub path: String,
    /// The query's pairs, percent-decoded (`+` is a space); the last of a repeated name.
    pub query: HashMap<String, String>,
}

impl Request {
    /// The query value `name` as a number, or `default` when absent or not a finite number.
    pub(crate) fn num(&self, name: &str, default: f64) -> f64 {
        self.query
            .get(name)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .unwrap_or(default)
    }

    /// Whether the query flag `name` is on (`1`, `true`, `on`).
    pub(crate) fn flag(&self, name: &str) -> bool {
        matches!(
            self.query.get(name).map(String::as_str),
            Some("1" | "true" | "on")
        )
    }
}

/// A response.
#[derive(Debug)]
pub(crate) struct Response {
    /// The status code.
    pub status: u16,
    /// The content type.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A response with `status`, `content_type` and `body`.
    pub(crate) fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body,
        }
    }

    /// A JSON response.
    pub(crate) fn json(value: &serde_json::Value) -> Response {
        Response::new(200, "application/json", value.to_string().into_bytes())
    }

    /// A plain-text error.
    pub(crate) fn error(status: u16, message: &str) -> Response {
        Response::new(
            status,
            "text/plain; charset=utf-8",
            format!("{message}\n").into_bytes(),
        )
    }

    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

/// Serves `listener` forever, a thread per connection, answering requests with `handle`.
pub(crate) fn serve<H>(listener: TcpListener, handle: H)
where
    H: Fn(&Request) -> Response + Send + Sync + 'static,
{
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
    let handle = Arc::new(handle);
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let _ = Response::error(503, "too many connections").write(&mut stream);
            continue;
        }
        let (handle, count) = (handle.clone(), open.clone());
        let spawned = std::thread::Builder::new()
            .name("mdlx-view-conn".into())
            .spawn(move || {
                let response = match read_request(&mut stream, port) {
                    // A model that makes the renderer panic answers 500; the server lives on.
                    Ok(request) => {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&request)))
                            .unwrap_or_else(|_| {
                                Response::error(500, "drawing failed (a bug: please report it)")
                            })
                    }
                    Err(r) => r,
                };
                let _ = response.write(&mut stream);
                finish(&mut stream);
                count.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // The connection is dropped; its count with it.
            open.fetch_sub(1, Ordering::SeqCst);
            eprintln!("mdlx: warning: view: cannot start a thread for a connection");
        }
    }
}

/// Closes a connection after its response: what the client still sends (the rest of a
/// refused request) is read and dropped for a moment first, since closing with unread
/// input resets the connection, and the client may then lose the response.
fn finish(stream: &mut TcpStream) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut buf = [0u8; 4096];
    let mut left = 1 << 20;
    while left > 0 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => left -= n.min(left),
        }
    }
}

/// Reads and checks one request head; an error is the response to send.
fn read_request(stream: &mut TcpStream, port: u16) -> Result<Request, Response> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 2048];
    loop {
        if let Some(end) = find(&head, b"\r\n\r\n") {
            head.truncate(end);
            break;
        }
        if head.len() > MAX_HEAD {
            return Err(Response::error(431, "request head too large"));
        }
        match stream.read(&mut buf) {
            Ok(0) => return Err(Response::error(400, "incomplete request")),
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(_) => return Err(Response::error(408, "request not received in time")),
        }
    }
    if head.len() > MAX_HEAD {
        return Err(Response::error(431, "request head too large"));
    }
    let text = std::str::from_utf8(&head).map_err(|_| Response::error(400, "not UTF-8"))?;
    parse_head(text, port)
}

/// Parses a request head (without its blank line).
pub(crate) fn parse_head(text: &str, port: u16) -> Result<Request, Response> {
    let mut lines = text.split("\r\n");
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (method, target, version) = (parts.next(), parts.next(), parts.next());
    let (Some(method), Some(target), Some(version), None) = (method, target, version, parts.next())
    else {
        return Err(Response::error(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Response::error(400, "HTTP/1.x only"));
    }
    if method != "GET" {
        let mut r = Response::error(405, "only GET is served");
        r.headers.push(("Allow", "GET".into()));
        return Err(r);
    }
    for header in lines {
        let Some((name, value)) = header.split_once(':') else {
            return Err(Response::error(400, "malformed header"));
        };
        if name.trim().eq_ignore_ascii_case("host") && !host_allowed(value.trim(), port) {
            return Err(Response::error(
                403,
                "this server answers only to 127.0.0.1",
            ));
        }
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = decode(path).ok_or_else(|| Response::error(400, "bad percent-encoding"))?;
    let mut pairs = HashMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = decode(&k.replace('+', " "));
        let v = decode(&v.replace('+', " "));
        match (k, v) {
            (Some(k), Some(v)) => pairs.insert(k, v),
            _ => return Err(Response::error(400, "bad percent-encoding")),
        };
    }
    Ok(Request { path, query: pairs })
}

/// `127.0.0.1:PORT` or `localhost:PORT` (the port may be left out).
fn host_allowed(host: &str, port: u16) -> bool {
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (host, None),
    };
    let name_ok = name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost");
    name_ok && p.is_none_or(|p| p.parse::<u16>().ok() == Some(port))
}

/// Percent-decoding to UTF-8; `None` for a broken escape or bytes that are not UTF-8.
pub(crate) fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_percent_decoded() {
        let r = parse_head(
            "GET /frame.png?seq=1&name=Stand%20Two&x=a+b&t=2%2E5 HTTP/1.1\r\nHost: 127.0.0.1:80",
            80,
        )
        .unwrap();
        assert_eq!(r.path, "/frame.png");
        assert_eq!(r.query["name"], "Stand Two");
        assert_eq!(r.query["x"], "a b");
        assert_eq!(r.num("t", 0.0), 2.5);
        assert_eq!(r.num("missing", 7.0), 7.0);
    }

    #[test]
    fn bad_requests_are_refused() {
        let status = |t: &str| parse_head(t, 80).err().map(|r| r.status);
        assert_eq!(status("POST / HTTP/1.1"), Some(405));
        assert_eq!(status("GET / HTTP/1.1\r\nHost: evil.example:80"), Some(403));
        assert_eq!(status("GET / HTTP/1.1\r\nHost: 127.0.0.1:81"), Some(403));
        assert_eq!(status("GET /%zz HTTP/1.1"), Some(400));
        assert_eq!(status("GET /?a=%ff HTTP/1.1"), Some(400));
        assert_eq!(status("GET /"), Some(400));
        assert_eq!(status("GET / HTTP/1.1\r\nHost: localhost:80"), None);
    }
}
