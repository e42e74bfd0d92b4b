/// The verifier page `verifier serve` shows at `/`: pick what to ask, press the button, see the
/// verified claims, the portrait, the trust decision and the status. It uses only the browser
/// module, as a relying party's own page would; readable on a phone.
package enum VerifierPage {
  package static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Verifier</title>
    <style>
      body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 1rem; }
      fieldset { border: 1px solid #bbb; border-radius: .5rem; }
      label { display: block; padding: .4rem 0; }
      button { font-size: 1.1rem; padding: .7rem 1.2rem; margin: 1rem 0; width: 100%; }
      dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem .8rem; }
      dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
      .portrait { max-width: 8rem; border-radius: .3rem; display: block; }
      .dc-qr { width: min(18rem, 100%); image-rendering: pixelated; }
      #result[data-outcome="verified"] h2 { color: #17623a; }
      #result[data-outcome="refused"] h2, #result[data-outcome="cancelled"] h2 { color: #9a2b1d; }
      .checks { font-size: .85rem; color: #444; }
    </style>
    </head>
    <body>
    <h1>Verifier</h1>
    <form id="ask">
      <fieldset>
        <legend>What to ask for</legend>
        <label><input type="radio" name="ask" value="age" checked> Age over 18</label>
        <label><input type="radio" name="ask" value="mdl"> A mobile driving licence (mDL)</label>
        <label><input type="radio" name="ask" value="pid"> A person identification (PID)</label>
      </fieldset>
      <button id="go" type="submit">Verify with a wallet</button>
    </form>
    <p id="support"></p>
    <div id="fallback" hidden></div>
    <section id="result" hidden aria-live="polite"></section>
    <script type="module">
    import { requestCredential, support } from "./dc-verifier.js";

    const MDL = "org.iso.18013.5.1.mDL", NS = "org.iso.18013.5.1";
    const mdocClaims = (names) => names.map((n) => ({ path: [NS, n], intent_to_retain: false }));
    const QUERIES = {
      age: { credentials: [
          { id: "mdl", format: "mso_mdoc", meta: { doctype_value: MDL },
            claims: mdocClaims(["age_over_18"]) },
          { id: "pid", format: "dc+sd-jwt", meta: { vct_values: ["urn:eudi:pid:1"] },
            claims: [{ path: ["age_over_18"] }] } ],
        credential_sets: [{ options: [["mdl"], ["pid"]] }] },
      mdl: { credentials: [
          { id: "mdl", format: "mso_mdoc", meta: { doctype_value: MDL },
            claims: mdocClaims(["family_name", "given_name", "birth_date", "document_number",
                                "portrait", "age_over_18"]) } ] },
      pid: { credentials: [
          { id: "pid", format: "dc+sd-jwt", meta: { vct_values: ["urn:eudi:pid:1"] },
            claims: ["given_name", "family_name", "birthdate", "age_over_18"]
              .map((n) => ({ path: [n] })) } ] },
    };

    const result = document.getElementById("result");
    const fallback = document.getElementById("fallback");
    const detected = support();
    document.getElementById("support").textContent = detected.api
      ? "This browser has the Digital Credentials API."
      : "No Digital Credentials API here: a QR code will be shown for a wallet on another device.";

    function text(tag, value, className) {
      const node = document.createElement(tag);
      node.textContent = value;
      if (className) node.className = className;
      return node;
    }
    const shown = (v) => typeof v === "string" ? v : JSON.stringify(v);

    function show(outcome) {
      result.replaceChildren();
      result.dataset.outcome = outcome.kind;
      const titles = { verified: "Verified", refused: "Refused", cancelled: "Cancelled",
                       unsupported: "Not supported in this browser" };
      result.append(text("h2", titles[outcome.kind] ?? outcome.kind));
      if (outcome.kind !== "verified") {
        result.append(text("p", outcome.reason ?? "", "reason"));
      } else {
        result.dataset.elapsedMs = String(outcome.elapsedMs);
        const report = outcome.report;
        result.append(text("p", "Answered with " + report.protocol, "protocol"));
        for (const credential of report.credentials) {
          const article = document.createElement("article");
          article.className = "credential";
          article.append(text("h3", credential.type));
          if (typeof credential.portrait === "string"
              && /^data:image\/(jpeg|png);base64,/.test(credential.portrait)) {
            const image = document.createElement("img");
            image.className = "portrait";
            image.alt = "Portrait";
            image.src = credential.portrait;
            article.append(image);
          }
          const list = document.createElement("dl");
          list.className = "claims";
          for (const claim of credential.claims) {
            if (claim.name === "portrait") continue;
            const value = text("dd", shown(claim.value));
            value.dataset.claim = claim.name;
            list.append(text("dt", claim.name), value);
          }
          article.append(list);
          if (credential.trust) article.append(text("p", "Trust: " + credential.trust, "trust"));
          article.append(text("p", "Status: " + (credential.status ?? "not checked"), "status"));
          result.append(article);
        }
        const checks = document.createElement("ul");
        checks.className = "checks";
        for (const check of report.checks) checks.append(text("li", check));
        result.append(checks);
      }
      result.hidden = false;
    }

    document.getElementById("ask").addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = document.getElementById("go");
      button.disabled = true;
      result.hidden = true;
      fallback.hidden = true;
      delete result.dataset.outcome;
      const ask = new FormData(event.target).get("ask");
      try {
        const outcome = await requestCredential({ dcqlQuery: QUERIES[ask], fallback });
        fallback.hidden = true;
        show(outcome);
      } finally {
        button.disabled = false;
      }
    });
    </script>
    </body>
    </html>
    """#
}
