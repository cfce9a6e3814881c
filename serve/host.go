package serve

import (
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// hostGuard decides which Host headers the server answers, whatever
// address it listens on. A web page can make a browser send requests to
// this server under a name of its own (DNS rebinding: evil.example first
// resolves to the page's server, then to this machine) and then read the
// answers as its own origin; only names the user meant are answered:
// localhost and *.localhost (browsers resolve those to loopback
// themselves), this machine's host name, names given with --allow-host,
// and IP addresses of this machine, which a page cannot rebind.
type hostGuard struct {
	names map[string]bool

	mu      sync.Mutex
	addrs   map[netip.Addr]bool
	checked time.Time
	// interfaceAddrs lists this machine's addresses; tests replace it.
	interfaceAddrs func() ([]net.Addr, error)
}

// addrsTTL is how long the machine's addresses are trusted before an
// unknown address in a Host header makes the guard look again (an
// interface may have come up since).
const addrsTTL = 5 * time.Second

func newHostGuard(allow []string) *hostGuard {
	g := &hostGuard{names: map[string]bool{"localhost": true}, interfaceAddrs: net.InterfaceAddrs}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = normalHost(h)
		short, _, _ := strings.Cut(h, ".")
		g.names[h] = true
		g.names[short] = true
		g.names[short+".local"] = true // mDNS
	}
	for _, n := range allow {
		g.names[normalHost(n)] = true
	}
	return g
}

// normalHost is a Host header's name without port, brackets, IPv6 zone or
// trailing dot, in lower case.
func normalHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if i := strings.IndexByte(host, '%'); i >= 0 {
		host = host[:i]
	}
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// allowed reports whether a request with this Host header is answered.
func (g *hostGuard) allowed(host string) bool {
	h := normalHost(host)
	if h == "" {
		return false
	}
	if g.names[h] || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || g.isMachineAddr(ip)
}

// isMachineAddr reports whether ip is an address of this machine. An
// address not known is looked up again if the last look is older than
// addrsTTL.
func (g *hostGuard) isMachineAddr(ip netip.Addr) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.addrs == nil || !g.addrs[ip] && time.Since(g.checked) > addrsTTL {
		g.loadAddrs()
	}
	return g.addrs[ip]
}

func (g *hostGuard) loadAddrs() {
	g.addrs = map[netip.Addr]bool{}
	g.checked = time.Now()
	list, _ := g.interfaceAddrs()
	for _, a := range list {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			g.addrs[p.Addr().WithZone("").Unmap()] = true
		}
	}
}

// exposedAddrs lists where a listener on addr can be reached from other
// machines: every address of this machine but loopback for an
// unspecified address (Go listens on both IPv4 and IPv6 then), else
// addr's own.
func (g *hostGuard) exposedAddrs(addr *net.TCPAddr) []string {
	ip, ok := netip.AddrFromSlice(addr.IP)
	if !ok {
		return nil
	}
	ip = ip.Unmap()
	if !ip.IsUnspecified() {
		return []string{ip.String()}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.loadAddrs()
	var out []string
	for a := range g.addrs {
		if !a.IsLoopback() {
			out = append(out, a.String())
		}
	}
	slices.Sort(out)
	return out
}

// sortedNames lists the host names answered, for the start-up warning.
func (g *hostGuard) sortedNames() []string {
	var out []string
	for n := range g.names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
