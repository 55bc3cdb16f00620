//! TLS without a proxy: `https://` and `wss://` served by the server
//! itself, and a certificate replaced while a websocket stays open.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use reversi_signaling::{Config, TlsFiles, start};
use rustls::pki_types::{CertificateDer, ServerName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_tungstenite::tungstenite::Message;

/// A CA and a `localhost` certificate it signed, written to `dir`.
struct Authority {
    ca: CertificateDer<'static>,
    files: TlsFiles,
}

fn authority(dir: &Path, name: &str) -> Authority {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let files = TlsFiles {
        cert: dir.join(format!("{name}.crt")),
        key: dir.join(format!("{name}.key")),
    };
    std::fs::write(&files.cert, leaf.pem()).unwrap();
    std::fs::write(&files.key, key.serialize_pem()).unwrap();
    Authority {
        ca: ca.der().clone(),
        files,
    }
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-tls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn connector(trusted: &CertificateDer<'static>) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(trusted.clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    TlsConnector::from(Arc::new(config))
}

async fn tls_stream(
    port: u16,
    trusted: &CertificateDer<'static>,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(("127.0.0.1", port)).await?;
    let name = ServerName::try_from("localhost").unwrap();
    connector(trusted).connect(name, tcp).await
}

async fn https_health(port: u16, trusted: &CertificateDer<'static>) -> std::io::Result<String> {
    let mut stream = tls_stream(port, trusted).await?;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await?;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    Ok(String::from_utf8_lossy(&response).into_owned())
}

#[tokio::test]
async fn https_and_wss_are_served_and_a_reloaded_certificate_keeps_open_connections() {
    let dir = folder("reload");
    let first = authority(&dir, "first");
    let config = Config {
        tls: Some(first.files.clone()),
        ..Config::default()
    };
    let server = start("127.0.0.1:0".parse().unwrap(), config).await.unwrap();
    let port = server.addr.port();

    let health = https_health(port, &first.ca).await.unwrap();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");

    // A player in a room over wss://.
    let stream = tls_stream(port, &first.ca).await.unwrap();
    let (mut ann, _) = tokio_tungstenite::client_async("wss://localhost/TLSROOM", stream)
        .await
        .expect("a websocket over TLS");
    let assigned = ann.next().await.unwrap().unwrap();
    assert!(
        assigned.to_text().unwrap().contains("IdAssigned"),
        "{assigned:?}"
    );

    // A renewal: a new certificate from another authority, reloaded.
    let second = authority(&dir, "second");
    std::fs::copy(&second.files.cert, &first.files.cert).unwrap();
    std::fs::copy(&second.files.key, &first.files.key).unwrap();
    server.tls_reloader().unwrap().reload().await.unwrap();

    assert!(
        https_health(port, &first.ca).await.is_err(),
        "new connections get the new certificate"
    );
    let health = https_health(port, &second.ca).await.unwrap();
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");

    // The old connection lives on: it hears of a newcomer who came in
    // under the new certificate.
    let stream = tls_stream(port, &second.ca).await.unwrap();
    let (mut ben, _) = tokio_tungstenite::client_async("wss://localhost/TLSROOM", stream)
        .await
        .unwrap();
    let _ = ben.next().await;
    let event = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ann.next().await {
                Some(Ok(Message::Text(text))) => return text.to_string(),
                Some(Ok(_)) => continue,
                other => panic!("the old connection broke: {other:?}"),
            }
        }
    })
    .await
    .unwrap();
    assert!(event.contains("NewPeer"), "{event}");

    // A broken renewal leaves the working certificate in place.
    std::fs::write(&first.files.cert, "not a certificate").unwrap();
    let error = server.tls_reloader().unwrap().reload().await.unwrap_err();
    assert!(
        error.to_string().contains("cannot use the TLS certificate"),
        "{error}"
    );
    assert!(
        https_health(port, &second.ca)
            .await
            .unwrap()
            .starts_with("HTTP/1.1 200")
    );

    server.shutdown_handle().shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_missing_or_bad_certificate_is_refused_at_start() {
    let dir = folder("bad");
    let files = TlsFiles {
        cert: dir.join("missing.crt"),
        key: dir.join("missing.key"),
    };
    let config = Config {
        tls: Some(files),
        ..Config::default()
    };
    let error = start("127.0.0.1:0".parse().unwrap(), config)
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("missing.crt"),
        "the error names the file: {error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
