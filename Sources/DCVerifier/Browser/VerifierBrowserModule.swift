/// The browser module `verifier serve` publishes at `/dc-verifier.js`: a plain ES module (no
/// build step, no dependency) that any page imports to ask for a credential through the W3C
/// Digital Credentials API, with the cross-device QR fallback. Kept as a Swift string so the
/// package serves it without a resource bundle on any platform.
///
/// ```js
/// import { requestCredential } from "/dc-verifier.js";
/// const outcome = await requestCredential({ dcqlQuery, fallback: element });
/// // outcome.kind: "verified" (outcome.report) | "refused" (outcome.reason)
/// //             | "cancelled" | "unsupported"
/// ```
package enum VerifierBrowserModule {
  package static let source = #"""
    // dc-verifier.js: ask a wallet for a credential with the W3C Digital Credentials API
    // (navigator.credentials.get with "digital"), post what comes back to the verifier, and fall
    // back to a QR code for a wallet on another device. A plain ES module: no build, no dependency.

    /** The protocol identifiers the verifier may send (W3C DC API protocol registry). */
    export const PROTOCOLS = Object.freeze([
      "org-iso-mdoc", "openid4vp-v1-signed", "openid4vp-v1-multisigned", "openid4vp-v1-unsigned",
    ]);

    /**
     * What this browser offers: `api` when navigator.credentials.get takes "digital" requests
     * (a DigitalCredential interface and the call exist), and per protocol whether the browser
     * allows it (DigitalCredential.userAgentAllowsProtocol where it exists, else assumed).
     */
    export function support() {
      const DC = globalThis.DigitalCredential;
      const api = typeof DC === "function" && !!globalThis.navigator?.credentials
        && typeof navigator.credentials.get === "function";
      const allows = (id) => {
        if (!api) return false;
        if (typeof DC.userAgentAllowsProtocol !== "function") return true;
        try { return !!DC.userAgentAllowsProtocol(id); } catch { return false; }
      };
      return { api, protocols: Object.fromEntries(PROTOCOLS.map((id) => [id, allows(id)])) };
    }

    async function postJSON(url, body, signal) {
      const response = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body), signal, credentials: "same-origin",
      });
      let json = {};
      try { json = await response.json(); } catch { /* an empty or non-JSON body */ }
      return { ok: response.ok, status: response.status, body: json };
    }

    function refused(answer) {
      const body = answer.body || {};
      return {
        kind: "refused", error: body.error || "http_" + answer.status,
        reason: body.error_description || "HTTP " + answer.status,
      };
    }

    function settled(answer, started) {
      if (answer.ok && answer.body.status === "verified") {
        return { kind: "verified", report: answer.body.result,
                 elapsedMs: Math.round(performance.now() - started) };
      }
      return refused(answer);
    }

    /** Shows the QR code and link of the cross-device request in `element`. */
    export function showFallback(element, crossDevice) {
      element.replaceChildren();
      const figure = document.createElement("figure");
      figure.className = "dc-fallback";
      figure.dataset.uri = crossDevice.uri;
      if (typeof crossDevice.qr === "string" && crossDevice.qr.startsWith("data:image/svg+xml;")) {
        const image = document.createElement("img");
        image.className = "dc-qr";
        image.alt = "QR code: scan it with your wallet";
        image.src = crossDevice.qr;
        figure.append(image);
      }
      const caption = document.createElement("figcaption");
      const link = document.createElement("a");
      link.className = "dc-link";
      link.href = crossDevice.uri;
      link.textContent = "Open a wallet on this device";
      caption.append("Scan with a wallet on another device, or ", link);
      figure.append(caption);
      element.append(figure);
      element.hidden = false;
    }

    async function poll(server, id, { signal, pollInterval, timeout }, started) {
      const deadline = performance.now() + timeout;
      while (performance.now() < deadline) {
        if (signal?.aborted) return { kind: "cancelled", reason: "aborted" };
        const response = await fetch(server + "/dc-api/transactions/" + encodeURIComponent(id),
                                     { signal, credentials: "same-origin" });
        let body = {};
        try { body = await response.json(); } catch { /* keep polling */ }
        if (!response.ok || body.status !== "pending") {
          return settled({ ok: response.ok, status: response.status, body }, started);
        }
        await new Promise((resolve) => setTimeout(resolve, pollInterval));
      }
      return { kind: "refused", error: "timeout", reason: "no wallet answered in time" };
    }

    async function crossDevice(tx, options, started, why) {
      if (!options.fallback || !tx.cross_device) return { kind: "unsupported", reason: why };
      showFallback(options.fallback, tx.cross_device);
      options.onFallback?.(tx.cross_device, why);
      return poll(options.server ?? "", tx.transaction_id, options, started);
    }

    /**
     * Asks for what `dcqlQuery` describes: the verifier makes the transaction, the browser hands
     * the requests it allows to a wallet, the answer is verified by the verifier for its origin.
     * Where the API is absent or the browser refuses the call, `fallback` (an element) shows a
     * QR code for a wallet on another device and the verifier is polled for its answer.
     *
     * Resolves to { kind: "verified", report, elapsedMs } | { kind: "refused", error, reason }
     * | { kind: "cancelled", reason } | { kind: "unsupported", reason }; never rejects for a
     * wallet's or verifier's answer.
     */
    export async function requestCredential(options) {
      const { dcqlQuery, server = "", signal } = options;
      const settings = { pollInterval: 1000, timeout: 300000, ...options };
      const started = performance.now();
      let created;
      try {
        created = await postJSON(server + "/dc-api/transactions", { dcql_query: dcqlQuery }, signal);
      } catch (error) {
        return { kind: "refused", error: "network", reason: String(error?.message ?? error) };
      }
      if (!created.ok) return refused(created);
      const tx = created.body;
      const detected = support();
      const requests = tx.request.digital.requests.filter((r) => detected.protocols[r.protocol]);
      if (!detected.api) return crossDevice(tx, settings, started, "no Digital Credentials API");
      if (requests.length === 0) {
        return crossDevice(tx, settings, started, "the browser allows none of the protocols");
      }
      let credential;
      try {
        credential = await navigator.credentials.get({
          digital: { requests }, mediation: "required", signal,
        });
      } catch (error) {
        const name = error?.name ?? "Error";
        // The user closed the wallet's or the browser's prompt, or the page aborted.
        if (name === "NotAllowedError" || name === "AbortError") {
          return { kind: "cancelled", reason: error.message || name };
        }
        return crossDevice(tx, settings, started, name + ": " + (error?.message ?? ""));
      }
      if (!credential) return { kind: "cancelled", reason: "no credential was chosen" };
      try {
        const answer = await postJSON(
          server + "/dc-api/transactions/" + encodeURIComponent(tx.transaction_id) + "/response",
          { protocol: credential.protocol, data: credential.data }, signal);
        return settled(answer, started);
      } catch (error) {
        return { kind: "refused", error: "network", reason: String(error?.message ?? error) };
      }
    }
    """#
}
