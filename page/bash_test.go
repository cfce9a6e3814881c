package page

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestBashCommandOnce: a bash card shows its command once, whole, under
// its head, not a second time cut short in the head.
func TestBashCommandOnce(t *testing.T) {
	doc := parseNoScript(t, exportPage(t, loadCorpus(t, "pi-v3-civ6.jsonl"), Options{Home: "/home/dev"}))
	cards := 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Data != "section" || attr(n, "data-tool") != "bash" {
			continue
		}
		cards++
		var head, input string
		for c := range n.Descendants() {
			if c.Type == html.ElementNode && c.Data == "div" && attr(c, "class") == "tool-head" {
				head = textOf(c)
			}
			if c.Type == html.ElementNode && attr(c, "class") == "tool-input" {
				input = textOf(c)
			}
		}
		if !strings.HasPrefix(input, "$ ") || head != "bash" {
			t.Errorf("a bash card's head reads %q (the command again), its input %q", head, input)
		}
	}
	if cards == 0 {
		t.Fatal("no bash card")
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
