// Command consent is Accord's gRPC example in Go: an access token from the gateway's token
// endpoint (client credentials, scope consent), then CreateConsents and Decide on the consent
// service with the token in each call's metadata. It prints the stored event and the decision,
// and exits 1 on any error. Inputs (environment; clients/go/README.md):
//
//	ACCORD_BASE_URL       the gateway (default http://127.0.0.1:8080)
//	ACCORD_CONSENT_ADDR   the consent service's gRPC address, host:port
//	ACCORD_CLIENT_ID, ACCORD_CLIENT_SECRET, ACCORD_ACCOUNT_ID, ACCORD_APP_ID
//	                      an application's credentials and its ids (npm run admin -- bootstrap)
//	ACCORD_SUBJECT        whose consent is recorded (default user-42)
//	ACCORD_GRPC_CA        TLS with this CA (PEM) instead of plaintext; -tls-ca
//	ACCORD_GRPC_CERT, ACCORD_GRPC_KEY   a client certificate for mutual TLS; -tls-cert, -tls-key
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	consentv1 "accord.local/clients/go/accord/consent/v1"
)

const (
	issuer = "https://shop.example"
	target = "https://shop.example/privacy"
)

func main() {
	ca := flag.String("tls-ca", os.Getenv("ACCORD_GRPC_CA"), "CA certificate (PEM) of the consent service: TLS instead of plaintext")
	cert := flag.String("tls-cert", os.Getenv("ACCORD_GRPC_CERT"), "client certificate (PEM) for mutual TLS, with -tls-key")
	key := flag.String("tls-key", os.Getenv("ACCORD_GRPC_KEY"), "the client certificate's private key (PEM)")
	flag.Parse()
	if err := run(*ca, *cert, *key); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ca, cert, key string) error {
	var missing []string
	need := func(name string) string {
		v := os.Getenv(name)
		if v == "" {
			missing = append(missing, name)
		}
		return v
	}
	addr, clientID, clientSecret := need("ACCORD_CONSENT_ADDR"), need("ACCORD_CLIENT_ID"), need("ACCORD_CLIENT_SECRET")
	accountID, appID := need("ACCORD_ACCOUNT_ID"), need("ACCORD_APP_ID")
	if len(missing) > 0 {
		return fmt.Errorf("set %s", strings.Join(missing, ", "))
	}
	gateway, subject := os.Getenv("ACCORD_BASE_URL"), os.Getenv("ACCORD_SUBJECT")
	if gateway == "" {
		gateway = "http://127.0.0.1:8080"
	}
	if subject == "" {
		subject = "user-42"
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	token, err := accessToken(ctx, gateway, clientID, clientSecret)
	if err != nil {
		return err
	}
	creds, err := transportCredentials(ca, cert, key)
	if err != nil {
		return err
	}
	// Wait for ready: a call waits (within ctx) for the connection instead of failing at the first
	// refusal — a pod just started may be refused until the cluster's NetworkPolicy enforcer has
	// seen its address (about a second with kube-router).
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds), grpc.WithDefaultCallOptions(grpc.WaitForReady(true)))
	if err != nil {
		return err
	}
	defer conn.Close()
	consent := consentv1.NewConsentServiceClient(conn)
	// Every call carries the token; the service takes the caller's account and application from it.
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)

	created, err := consent.CreateConsents(ctx, &consentv1.CreateConsentsRequest{
		AccountId: accountID,
		AppId:     appID,
		Events:    []*consentv1.ConsentInput{{Subject: subject, Issuer: issuer, Target: target, Action: proto.Bool(true)}},
	})
	if err != nil {
		return fmt.Errorf("CreateConsents: %w", err)
	}
	event := created.GetEvents()[0]
	fmt.Printf("created consent event %s: subject=%s target=%s action=%t at %s\n",
		event.GetId(), event.GetSubject(), event.GetTarget(), event.GetAction(), event.GetCreatedAt().AsTime().Format(time.RFC3339Nano))

	decided, err := consent.Decide(ctx, &consentv1.DecideRequest{
		AccountId: accountID,
		Items:     []*consentv1.DecisionItem{{Subject: subject, Issuer: issuer, Target: target}},
	})
	if err != nil {
		return fmt.Errorf("Decide: %w", err)
	}
	d := decided.GetDecisions()[0]
	fmt.Printf("decision: allowed=%t basis=%s event=%s\n", d.GetAllowed(), d.GetBasis(), d.GetEventId())
	return nil
}

// accessToken asks the gateway's token endpoint for a token (client credentials, HTTP Basic).
func accessToken(ctx context.Context, gateway, clientID, clientSecret string) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"consent"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(gateway, "/")+"/oauth/v0/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// RFC 6749 §2.3.1: the id and secret are form-encoded before Basic encoding.
	req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(clientSecret))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	var body struct {
		AccessToken      string `json:"access_token"`
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return "", fmt.Errorf("token endpoint: %s: %w", res.Status, err)
	}
	if res.StatusCode != http.StatusOK || body.AccessToken == "" {
		return "", fmt.Errorf("token endpoint: %s: %s %s", res.Status, body.Error, body.ErrorDescription)
	}
	return body.AccessToken, nil
}

// transportCredentials: plaintext without a CA (npm start's loopback), else TLS with that CA, and
// with a client certificate when one is given.
func transportCredentials(ca, cert, key string) (credentials.TransportCredentials, error) {
	if ca == "" {
		return insecure.NewCredentials(), nil
	}
	pem, err := os.ReadFile(ca)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate", ca)
	}
	config := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if cert != "" || key != "" {
		if cert == "" || key == "" {
			return nil, errors.New("a client certificate needs both -tls-cert and -tls-key")
		}
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return credentials.NewTLS(config), nil
}
