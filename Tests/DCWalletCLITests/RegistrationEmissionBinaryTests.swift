import Foundation
import Testing

/// Issue 29: the registration certificate flow from the command line, each protective check run
/// through the built `dcwallet` in a fresh directory with bash -e (bounded in time): a file that
/// is not a registration certificate is refused by every command that sends one; the verifier
/// emits its registration in each protocol (OpenID4VP signed, multisigned and unsigned
/// `verifier_info`; `org-iso-mdoc` `euWrprc` under readerAuth in person; `verifier serve`'s
/// redirect request objects and DC API requests) and the wallet, trusting only the development
/// LoTE, shows it, marks and refuses over-asking and answers within; `issue` shows the issuer's
/// registration and `--refuse-unregistered-issuer` refuses a missing one, another party's and
/// one from an untrusted registrar, storing nothing.
@Suite("Registration certificates from the CLI")
struct RegistrationEmissionBinaryTests {
  static func run(_ name: String, _ script: String) throws {
    let (status, out, err) = try ReadmeTourTests.runScript(script, named: name, timeLimit: 120)
    #expect(status == 0, "\(name) failed:\n\(err)\n\(out)")
  }

  @Test("A file that is not a registration certificate is refused by every sending command")
  func notARegistrationCertificate() throws {
    try Self.run(
      "registration-refused",
      #"""
      dcwallet dev files > /dev/null
      export DCWALLET_HOME=$(mktemp -d)
      refused() { # the command must exit with $1 and say $2 on standard error
        want=$1; text=$2; shift 2
        set +e; "$@" > cmd.out 2> cmd.err; got=$?; set -e
        [ "$got" = "$want" ] || { echo "exit $got, not $want: $*"; cat cmd.err; exit 1; }
        grep -q "$text" cmd.err || { echo "no '$text': $*"; cat cmd.err; exit 1; }
        echo "refused: $1 $2 $3"
      }
      NOT="is not a registration certificate (ETSI TS 119 475)"
      refused 1 "access.pem $NOT" dcwallet verifier request --protocol org-iso-mdoc \
        --doctype org.iso.18013.5.1.mDL --element org.iso.18013.5.1/age_over_18 \
        --reader-key access-key.pem --reader-cert access.pem --registration-cert access.pem \
        --out-request r.json --out-state s.json
      refused 1 "pid.txt $NOT" dcwallet verifier request --protocol openid4vp-v1-signed \
        --dcql query.json --signer-key access-key.pem --signer-cert access.pem \
        --registration-cert pid.txt --out-request r.json --out-state s.json
      refused 1 "trusted-list.lote $NOT" dcwallet issuer serve --port 0 \
        --registration-cert trusted-list.lote
      refused 1 "mdl.cbor $NOT" dcwallet verifier serve --port 0 --signer-key access-key.pem \
        --signer-cert access.pem --registration-cert mdl.cbor
      refused 1 "access.pem $NOT" dcwallet read --engagement mdoc:owBjMS4w --connect 127.0.0.1:9 \
        --doctype org.iso.18013.5.1.mDL --element org.iso.18013.5.1/age_over_18 \
        --reader-key access-key.pem --reader-cert access.pem --registration-cert access.pem
      refused 2 "needs --reader-key" dcwallet verifier request --protocol org-iso-mdoc \
        --doctype org.iso.18013.5.1.mDL --element org.iso.18013.5.1/age_over_18 \
        --registration-cert registration.jwt --out-request r.json --out-state s.json
      refused 2 "needs --reader-key" dcwallet read --engagement mdoc:owBjMS4w --connect 127.0.0.1:9 \
        --doctype org.iso.18013.5.1.mDL --element org.iso.18013.5.1/age_over_18 \
        --registration-cert registration.jwt
      [ ! -e r.json ] || { echo "a refused request was written"; exit 1; }
      """#)
  }

  @Test("OpenID4VP verifier_info: shown, over-asking refused, a request within answered")
  func openID4VP() throws {
    try Self.run(
      "registration-openid4vp",
      #"""
      dcwallet dev files > /dev/null
      export DCWALLET_HOME=$(mktemp -d)
      dcwallet trust import-list trusted-list.lote --kind lote --operator-cert list-operator.pem
      dcwallet import --mdoc mdl.cbor --device-key device.pem --id mdl
      within='{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "family_name"]}, {"path": ["org.iso.18013.5.1", "age_over_18"]}]}]}'
      beyond='{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "family_name"]}, {"path": ["org.iso.18013.5.1", "document_number"]}]}]}'
      echo "$within" > within.json
      echo "$beyond" > beyond.json
      for protocol in openid4vp-v1-signed openid4vp-v1-multisigned; do
        dcwallet verifier request --protocol $protocol --dcql beyond.json \
          --origin https://shop.example --signer-key access-key.pem --signer-cert access.pem \
          --registration-cert registration.jwt --out-request request.json --out-state state.json
        if echo n | dcwallet respond --origin https://shop.example --request request.json \
          --interactive 2> consent.txt; then exit 1; fi
        grep -q -- '- registered as: Development Shop (Development Shop Ltd)' consent.txt
        grep -q 'org.iso.18013.5.1/document_number: D1234567 \[OVER-ASKING: not registered\]' consent.txt
        if dcwallet respond --origin https://shop.example --request request.json \
          --refuse-over-asking > response.json 2> refusal.txt; then exit 1; fi
        grep -q 'beyond the registration' refusal.txt
        dcwallet verifier request --protocol $protocol --dcql within.json \
          --origin https://shop.example --signer-key access-key.pem --signer-cert access.pem \
          --registration-cert registration.jwt --out-request request.json --out-state state.json
        dcwallet respond --origin https://shop.example --request request.json \
          --refuse-over-asking > response.json
        dcwallet verifier verify --state state.json --origin https://shop.example \
          --response response.json --issuer-anchor iaca.pem > verified.txt
        grep -q 'family_name: "Mustermann"' verified.txt
        echo "$protocol: registered, over-asking refused, within answered"
      done
      # Unsigned: the registration is shown, but no access certificate binds it; the policy refuses.
      dcwallet verifier request --protocol openid4vp-v1-unsigned --dcql within.json \
        --origin https://shop.example --registration-cert registration.jwt \
        --out-request request.json --out-state state.json
      grep -q '"registration_cert"' request.json
      if echo n | dcwallet respond --origin https://shop.example --request request.json \
        --interactive 2> consent.txt; then exit 1; fi
      grep -q -- '- registered as: Development Shop' consent.txt
      grep -q 'NOT bound: the requester has no trusted access certificate' consent.txt
      if dcwallet respond --origin https://shop.example --request request.json \
        --refuse-over-asking > response.json 2> refusal.txt; then exit 1; fi
      grep -q 'does not belong to the requester' refusal.txt
      echo "openid4vp-v1-unsigned: registration shown, unbound refused"
      """#)
  }

  @Test("issue shows the issuer's registration and refuses a missing, foreign or untrusted one")
  func issuance() throws {
    try Self.run(
      "registration-issuance",
      #"""
      dcwallet dev files > /dev/null
      export DCWALLET_HOME=$(mktemp -d)
      dcwallet trust import-list trusted-list.lote --kind lote --operator-cert list-operator.pem
      ISSUER=
      trap '[ -z "$ISSUER" ] || kill $ISSUER' EXIT
      serve() { # an issuer publishing the registration named by $@ (none when empty)
        [ -z "$ISSUER" ] || { kill $ISSUER; wait $ISSUER || true; }
        rm -f issuer.url
        dcwallet issuer serve --port 0 --auto-approve "$@" > issuer.url &
        ISSUER=$!
        for i in $(seq 100); do [ -s issuer.url ] && break; sleep 0.1; done
        { read -r OFFER; read -r CODE; } < <(dcwallet issuer offer --configuration mDL --pre-authorized --tx-code)
      }
      stored() { dcwallet list | grep -c 'org.iso.18013.5.1.mDL' || true; }
      # No registration: shown, issued without the policy, refused with it (nothing stored).
      serve
      if dcwallet issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas \
        --refuse-unregistered-issuer 2> refusal.txt; then exit 1; fi
      grep -q 'refused the issuer: the issuer publishes no registration certificate' refusal.txt
      [ "$(stored)" = 0 ]
      dcwallet issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas 2> shown.txt
      if grep -q 'registered' shown.txt; then exit 1; fi
      [ "$(stored)" = 1 ]
      echo "missing: refused under the policy"
      # Another party's registration (the shop's, registered to issue nothing).
      serve --registration-cert registration.jwt
      if dcwallet issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas \
        --refuse-unregistered-issuer 2> refusal.txt; then exit 1; fi
      grep -q 'Development Shop is not registered to issue org.iso.18013.5.1.mDL' refusal.txt
      [ "$(stored)" = 1 ]
      echo "other party: refused"
      # The issuer's own registration, from a registrar the wallet does not trust.
      serve --registration-cert issuer-registration.jwt
      if dcwallet --home "$(mktemp -d)" issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas \
        --refuse-unregistered-issuer 2> refusal.txt; then exit 1; fi
      grep -q 'issuer registration INVALID (untrustedSigner)' refusal.txt
      grep -q "refused the issuer: the issuer's registration certificate is invalid" refusal.txt
      echo "untrusted registrar: refused"
      # ... trusted by --registrar-cert instead of a list, and by the list: issued.
      dcwallet --home "$(mktemp -d)" issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas \
        --refuse-unregistered-issuer --registrar-cert registrar.pem 2> shown.txt
      grep -q 'issuer registered as: Development Issuer (Development Issuer Agency)' shown.txt
      { read -r OFFER; read -r CODE; } < <(dcwallet issuer offer --configuration mDL --pre-authorized --tx-code)
      dcwallet issue "$OFFER" --tx-code "$CODE" --trust-issuer-iacas --refuse-unregistered-issuer \
        2> shown.txt
      grep -q 'issuer registered as: Development Issuer (Development Issuer Agency)' shown.txt
      grep -q '  privacy policy: https://issuer.example/privacy' shown.txt
      [ "$(stored)" = 2 ]
      echo "registered: issued"
      """#)
  }

  #if os(Linux)
    @Test("verifier serve's redirect requests and read in person carry the registration")
    func redirectAndInPerson() throws {
      try Self.run(
        "registration-serve",
        #"""
        dcwallet dev files --origin-host localhost > /dev/null
        export DCWALLET_HOME=$(mktemp -d)
        dcwallet trust import-list trusted-list.lote --kind lote --operator-cert list-operator.pem
        dcwallet import --mdoc mdl.cbor --device-key device.pem --id mdl
        echo '{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "given_name"]}]}]}' > within.json
        echo '{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "portrait"]}]}]}' > beyond.json
        dcwallet verifier serve --port 0 --signer-key access-key.pem --signer-cert access.pem \
          --registration-cert registration.jwt --issuer-anchor iaca.pem > verifier.url &
        VERIFIER=$!
        trap 'kill $VERIFIER' EXIT
        for i in $(seq 100); do [ -s verifier.url ] && break; sleep 0.1; done
        # Redirect flow: verifier_info in the request object.
        dcwallet verifier transaction --dcql within.json > result.txt &
        TRANSACTION=$!
        for i in $(seq 100); do [ -s result.txt ] && break; sleep 0.1; done
        echo y | dcwallet present-uri "$(head -n 1 result.txt)" --interactive --refuse-over-asking \
          2> consent.txt
        wait $TRANSACTION
        grep -q -- '- registered as: Development Shop (Development Shop Ltd)' consent.txt
        grep -q 'given_name' result.txt
        dcwallet verifier transaction --dcql beyond.json --timeout 5 > result.txt &
        TRANSACTION=$!
        for i in $(seq 100); do [ -s result.txt ] && break; sleep 0.1; done
        if dcwallet present-uri "$(head -n 1 result.txt)" --refuse-over-asking 2> refusal.txt; then
          exit 1
        fi
        grep -q 'beyond the registration' refusal.txt
        wait $TRANSACTION || true
        echo "verifier serve (redirect): registration sent, over-asking refused"
        # In person: euWrprc under readerAuth.
        echo y | dcwallet present --listen 127.0.0.1:18031 --require-trusted-reader --interactive \
          --refuse-over-asking > engagement.txt 2> consent.txt &
        PRESENT=$!
        for i in $(seq 100); do [ -s engagement.txt ] && break; sleep 0.1; done
        dcwallet read --engagement "$(head -n 1 engagement.txt)" --connect 127.0.0.1:18031 \
          --doctype org.iso.18013.5.1.mDL --element org.iso.18013.5.1/age_over_18 \
          --reader-key access-key.pem --reader-cert access.pem --registration-cert registration.jwt \
          --issuer-anchor iaca.pem
        wait $PRESENT
        grep -q -- '- registered as: Development Shop (Development Shop Ltd)' consent.txt
        echo "read (in person): registration sent and shown"
        """#)
    }

    @Test("verifier serve's DC API requests carry the registration in both protocols")
    func dcAPI() throws {
      try Self.run(
        "registration-dc-api",
        #"""
        dcwallet dev files --origin-host localhost > /dev/null
        export DCWALLET_HOME=$(mktemp -d)
        dcwallet trust import-list trusted-list.lote --kind lote --operator-cert list-operator.pem
        dcwallet import --mdoc mdl.cbor --device-key device.pem --id mdl
        query='{"credentials": [{"id": "mdl", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}, "claims": [{"path": ["org.iso.18013.5.1", "given_name"]}, {"path": ["org.iso.18013.5.1", "portrait"]}]}]}'
        for protocol in org-iso-mdoc openid4vp-v1-signed; do
          rm -f verifier.url
          dcwallet verifier serve --port 0 --signer-key access-key.pem --signer-cert access.pem \
            --reader-key access-key.pem --reader-cert access.pem --dc-api-protocol $protocol \
            --registration-cert registration.jwt --issuer-anchor iaca.pem > verifier.url &
          VERIFIER=$!
          for i in $(seq 100); do [ -s verifier.url ] && break; sleep 0.1; done
          ORIGIN=$(head -n 1 verifier.url | sed s/localhost/127.0.0.1/)   # the page origin
          curl -s -X POST -H 'Content-Type: application/json' --data "{\"dcql_query\": $query}" \
            "$ORIGIN/dc-api/transactions" > made.json
          python3 -c 'import json,sys; print(json.dumps(json.load(open("made.json"))["request"]))' > request.json
          if echo n | dcwallet respond --origin "$ORIGIN" --request request.json --interactive \
            2> consent.txt; then kill $VERIFIER; exit 1; fi
          kill $VERIFIER
          grep -q -- '- registered as: Development Shop (Development Shop Ltd)' consent.txt
          grep -q 'portrait.*\[OVER-ASKING: not registered\]' consent.txt
          echo "verifier serve (DC API, $protocol): registration sent and shown"
        done
        """#)
    }
  #endif
}
