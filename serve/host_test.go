package serve

import (
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
)

// With --addr 0.0.0.0 the Host check stays on: a DNS-rebound name is
// refused on every route, search included, while loopback names, this
// machine's name and addresses, and --allow-host names are answered.
func TestHostAllowListBeyondLoopback(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	srv := start(t, Options{Addr: "0.0.0.0:0", Paths: []string{dir}, AllowHosts: []string{"box.example"}})
	id := ids(t, srv)["Health endpoint"]
	for _, target := range []string{"/", "/search?q=health", "/s/" + id, "/s/" + id + "/events", "/assets/follow.js"} {
		for _, host := range []string{"evil.com", "evil.com:80", "evil.localhost.evil.com", "127.0.0.1.nip.io", "0.0.0.0", "8.8.8.8"} {
			status, body := rawGet(t, srv.url, target, host)
			if status != http.StatusForbidden || strings.Contains(body, "Health") {
				t.Errorf("GET %s with Host %q: status %d, want 403", target, host, status)
			}
		}
	}
	port := srv.url[strings.LastIndex(srv.url, ":")+1 : len(srv.url)-1]
	allowed := []string{"localhost", "localhost:" + port, "LOCALHOST.", "app.localhost", "127.0.0.1:" + port, "[::1]:" + port, "box.example", "BOX.example.:" + port}
	if h, err := os.Hostname(); err == nil {
		allowed = append(allowed, h+":"+port)
	}
	if addrs, _ := net.InterfaceAddrs(); len(addrs) > 0 {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() {
				allowed = append(allowed, net.JoinHostPort(ipn.IP.String(), port))
			}
		}
	}
	for _, host := range allowed {
		if status, _ := rawGet(t, srv.url, "/search?q=health", host); status != http.StatusOK {
			t.Errorf("Host %q: status %d, want 200", host, status)
		}
	}
}

func TestHostGuard(t *testing.T) {
	g := newHostGuard([]string{"Pi.Example."})
	addrs := []net.Addr{&net.IPNet{IP: net.ParseIP("192.0.2.7"), Mask: net.CIDRMask(24, 32)}}
	g.interfaceAddrs = func() ([]net.Addr, error) { return addrs, nil }
	for host, want := range map[string]bool{
		"localhost": true, "localhost:8080": true, "a.b.localhost": true, "127.0.0.2": true, "[::1]": true,
		"[::ffff:127.0.0.1]:80": true, "pi.example": true, "PI.EXAMPLE:1": true, "192.0.2.7:8080": true,
		"evil.com": false, "localhost.evil.com": false, "192.0.2.8": false, "0.0.0.0": false, "[::]": false,
		"": false, "pi.example.evil": false,
	} {
		if got := g.allowed(host); got != want {
			t.Errorf("allowed(%q) = %v, want %v", host, got, want)
		}
	}
	// An address that appears later is found once the list is old.
	addrs = append(addrs, &net.IPNet{IP: net.ParseIP("198.51.100.1"), Mask: net.CIDRMask(24, 32)})
	g.checked = g.checked.Add(-2 * addrsTTL)
	if !g.allowed("198.51.100.1") {
		t.Error("a new address of the machine is refused")
	}
}
