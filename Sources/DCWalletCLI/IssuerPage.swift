import DCHTTP
import DCIssuer
import DCJSON
import Foundation

/// What `dcwallet issuer serve` adds to the issuer's endpoints: a small page at `/` that offers a
/// credential to the browser's wallet through the W3C Digital Credentials API
/// (`navigator.credentials.create` with `openid4vci-v1`), its ES module, and the endpoint the page
/// asks for an offer. The page posts only the configuration and grant the user picked; the offer
/// (and the `navigator.credentials.create` argument around it) is made by the issuer library.
struct IssuerPageHandler: HTTPHandler, HTTPEndpointPolicyProviding {
  let service: CredentialIssuerService
  let issuer: IssuerHTTPHandler

  init(service: CredentialIssuerService) {
    self.service = service
    self.issuer = IssuerHTTPHandler(service: service)
  }

  /// The path the page posts to for the `navigator.credentials.create` argument.
  static let offerPath = "/dc-api/offer"
  static let modulePath = "/issuer-page.js"

  func handle(_ request: HTTPRequest) async -> HTTPResponse {
    let path = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.path ?? ""
    switch (request.method, path) {
    case (.get, "/"), (.get, ""): return Self.page(IssuerPageAssets.html, type: "text/html")
    case (.get, Self.modulePath): return Self.page(IssuerPageAssets.module, type: "text/javascript")
    case (.post, Self.offerPath): return offer(request)
    default: return await issuer.handle(request)
    }
  }

  /// The page's offer endpoint takes JSON from the issuer's own page only; every other path is
  /// the issuer's, with its own policy (the gate checks Content-Type and Origin before
  /// `handle`, so a wrapper that dropped them would reopen cross-site form posts).
  func endpointPolicy(method: HTTPMethod, path: String) -> HTTPEndpointPolicy? {
    switch (method, path) {
    case (.get, "/"), (.get, ""), (.get, Self.modulePath): HTTPEndpointPolicy()
    case (.post, Self.offerPath): .json
    default: issuer.endpointPolicy(method: method, path: path)
    }
  }

  /// POST `{"configuration": ID, "grant": "pre-authorized" | "authorization-code"}`: a fresh
  /// offer as the `navigator.credentials.create` argument.
  func offer(_ request: HTTPRequest) -> HTTPResponse {
    guard request.body.count <= 4096, let body = try? JSONValue(parsing: request.body),
      let configuration = body["configuration"]?.string
    else {
      return Self.problem(400, "post {\"configuration\": ID, \"grant\": ...}")
    }
    let grant: OfferGrantKind
    switch body["grant"]?.string ?? "pre-authorized" {
    case "pre-authorized": grant = .preAuthorized(transactionCode: false)
    case "authorization-code": grant = .authorizationCode
    default: return Self.problem(400, "grant is pre-authorized or authorization-code")
    }
    do {
      let created = try service.createOffer(configurationIDs: [configuration], grant: grant)
      var response = Self.page(
        Array(service.digitalCredentialCreationOptions(for: created).serialized().utf8),
        type: "application/json")
      // The offer holds a pre-authorized code: never cached.
      response.headers["Cache-Control"] = "no-store"
      return response
    } catch {
      return Self.problem(400, "no offer for \(configuration)")
    }
  }

  static func page(_ body: String, type: String) -> HTTPResponse {
    page(Array(body.utf8), type: type)
  }

  static func page(_ body: [UInt8], type: String) -> HTTPResponse {
    HTTPResponse(
      status: 200,
      headers: [
        "Content-Type": "\(type); charset=utf-8",
        // The page runs only its own module; nothing inline, nothing from elsewhere.
        "Content-Security-Policy":
          "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          + "frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
      ], body: body)
  }

  static func problem(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: ["Content-Type": "application/json"],
      body: Array(JSONValue.object([("error", .string(text))]).serialized().utf8))
  }
}

/// The page and its module: plain HTML and an ES module, no build step, no dependency.
enum IssuerPageAssets {
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Development issuer</title>
    <style>
    body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; }
    label, select, button { display: block; font-size: 1.1rem; margin: .5rem 0; }
    button { padding: .6rem 1.2rem; }
    #status { margin-top: 1rem; padding: .8rem; border-radius: .4rem; background: #f2f2f2; }
    </style>
    <script type="module" src="issuer-page.js"></script>
    </head>
    <body>
    <h1>Add a credential to your wallet</h1>
    <label for="configuration">Credential</label>
    <select id="configuration">
    <option value="pid">Person identification data (SD-JWT VC)</option>
    <option value="mDL">Mobile driving licence (mdoc)</option>
    </select>
    <label for="grant">How the wallet is authorized</label>
    <select id="grant">
    <option value="pre-authorized">Pre-authorized (no sign-in)</option>
    <option value="authorization-code">Sign in at the issuer</option>
    </select>
    <button id="offer" type="button">Add to wallet</button>
    <p id="status" data-outcome="idle" role="status">Pick a credential and press the button.</p>
    </body>
    </html>

    """

  static let module = """
    // Offers a credential through the W3C Digital Credentials API: navigator.credentials.create
    // with the openid4vci-v1 issuance protocol; the argument comes from the issuer as it is.
    const PROTOCOL = "openid4vci-v1";
    const status = document.getElementById("status");

    function show(outcome, text) {
      status.dataset.outcome = outcome;
      status.textContent = text;
    }

    // Feature detection: the API where it exists, and the protocol where the browser says.
    export function supportsIssuance() {
      if (!window.isSecureContext || !navigator.credentials) return false;
      if (typeof DigitalCredential === "undefined") return false;
      if (typeof DigitalCredential.userAgentAllowsProtocol === "function") {
        return DigitalCredential.userAgentAllowsProtocol(PROTOCOL);
      }
      return true;
    }

    export async function offer(configuration, grant) {
      if (!supportsIssuance()) {
        show("unsupported", "This browser cannot hand a credential offer to a wallet.");
        return;
      }
      show("pending", "Waiting for the wallet...");
      try {
        const reply = await fetch("dc-api/offer", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ configuration, grant }),
        });
        if (!reply.ok) throw new Error("the issuer made no offer (HTTP " + reply.status + ")");
        const credential = await navigator.credentials.create(await reply.json());
        let data = credential && credential.data;
        if (typeof data === "string") data = JSON.parse(data);
        if (data && data.status === "offer_accepted") {
          show("accepted", "The wallet accepted the offer (" + credential.protocol + ").");
        } else {
          show("refused", "The wallet did not accept the offer.");
        }
      } catch (error) {
        if (error && error.name === "NotAllowedError") {
          show("cancelled", "The offer was declined.");
        } else {
          show("error", "The offer failed: " + ((error && error.message) || error));
        }
      }
    }

    document.getElementById("offer").addEventListener("click", () => {
      offer(document.getElementById("configuration").value, document.getElementById("grant").value);
    });

    """
}
