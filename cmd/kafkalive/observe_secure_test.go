package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kafkalive/kafkalive/observe"
)

// selfSigned is a certificate for 127.0.0.1, its own authority, and its
// PEM.
func selfSigned(t *testing.T) (tls.Certificate, []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kafkalive test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestObserveOverTLSAndSASL: the observer reaches a cluster that speaks
// only TLS and takes only SCRAM-SHA-256 (franz-go's kfake) with --tls,
// --tls-ca and the SASL flags; a wrong password, or no --tls, ends in exit
// status 1 with what to check.
func TestObserveOverTLSAndSASL(t *testing.T) {
	cert, caPEM := selfSigned(t)
	c, err := kfake.NewCluster(kfake.NumBrokers(2), kfake.SeedTopics(2, "secure"), kfake.EnableSASL(),
		kfake.Superuser("SCRAM-SHA-256", "observer", "s3cret"), kfake.TLS(&tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}))
	require.NoError(t, err)
	defer c.Close()
	dir := t.TempDir()
	ca, pw, wrong := filepath.Join(dir, "ca.pem"), filepath.Join(dir, "password"), filepath.Join(dir, "wrong")
	require.NoError(t, os.WriteFile(ca, caPEM, 0o600))
	require.NoError(t, os.WriteFile(pw, []byte("s3cret\n"), 0o600))
	require.NoError(t, os.WriteFile(wrong, []byte("guess\n"), 0o600))
	base := []string{"observe", "--bootstrap", strings.Join(c.ListenAddrs(), ","), "--once", "--poll-timeout", "3s"}

	var out, errOut bytes.Buffer
	code := run(append(base, "--json", "--tls-ca", ca, "--sasl-mechanism", "scram-sha-256", "--sasl-user", "observer", "--sasl-password-file", pw), &out, &errOut)
	require.Equal(t, 0, code, "stderr: %s", errOut.String())
	var s observe.Sample
	require.NoError(t, json.Unmarshal(out.Bytes(), &s))
	require.Len(t, s.Brokers, 2)
	require.NotNil(t, s.Partition("secure", 1))

	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--tls-ca", ca, "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-user", "observer", "--sasl-password-file", wrong}, "check --sasl-mechanism"},
		{[]string{"--sasl-mechanism", "SCRAM-SHA-256", "--sasl-user", "observer", "--sasl-password-file", pw}, "--tls"},
		{[]string{"--tls", "--sasl-mechanism", "SCRAM-SHA-256", "--sasl-user", "observer", "--sasl-password-file", pw}, "--tls-ca"},
	} {
		out.Reset()
		errOut.Reset()
		code := run(append(append([]string{}, base...), tc.args...), &out, &errOut)
		require.Equal(t, 1, code, "%q: stderr %s", tc.args, errOut.String())
		require.Contains(t, errOut.String(), tc.says, "%q", tc.args)
	}
}
