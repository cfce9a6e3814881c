package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/piexport/piexport/page"
)

// The passphrase of an encrypted page (--encrypt). It never comes from a
// flag's value, which would stay in the shell's history and show in the
// list of processes: it is read from a file (--password-file), from the
// environment (PIEXPORT_PASSWORD), or asked for on the terminal without
// echo, twice.

// passphraseEnv names the environment variable that may hold the
// passphrase.
const passphraseEnv = "PIEXPORT_PASSWORD"

// shortPassphrase is the length under which a passphrase draws a warning:
// whoever holds the file can try passphrases offline, as fast as their
// machines go, and PBKDF2's rounds only slow each try.
const shortPassphrase = 12

// maxPassphraseFile bounds what --password-file reads: a passphrase, not
// a file that was named by mistake.
const maxPassphraseFile = 64 << 10

// readPassphrase returns the passphrase for --encrypt, from the first
// source that gives one, and warns on u.err when it is short; "" without
// --encrypt.
func readPassphrase(opt *options, u *ui) (string, error) {
	var pass string
	switch {
	case !opt.sharing.encrypt:
		return "", nil
	case opt.sharing.passwordFile != "":
		p, err := passphraseFromFile(opt.sharing.passwordFile)
		if err != nil {
			return "", err
		}
		pass = p
	case os.Getenv(passphraseEnv) != "":
		p, err := page.CheckPassphrase(os.Getenv(passphraseEnv))
		if err != nil {
			hint := ""
			if strings.HasSuffix(os.Getenv(passphraseEnv), "\r") {
				hint = " ($(cat FILE) leaves one from a file with Windows line ends: use --password-file FILE)"
			}
			return "", fmt.Errorf("%s: %w%s", passphraseEnv, err, hint)
		}
		pass = p
	case u.canAsk:
		p, err := askPassphrase(u)
		if err != nil {
			return "", err
		}
		pass = p
	default:
		return "", usagef("--encrypt needs a passphrase: give --password-file FILE, or set %s, or run piexport on a terminal to be asked for one", passphraseEnv)
	}
	if n := utf8.RuneCountInString(pass); n < shortPassphrase {
		if !u.quiet {
			printf(u.err, "warning: the passphrase has %s: whoever gets the page can try passphrases offline as fast as their machines go; five or more random words hold far longer", count(n, "character", "characters"))
		}
	}
	return pass, nil
}

// passphraseFromFile reads the first line of path, without its line end
// and without the byte order mark an editor may write before it.
func passphraseFromFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", passwordFileError(path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPassphraseFile+1))
	if err != nil {
		return "", passwordFileError(path, err)
	}
	if len(b) > maxPassphraseFile {
		return "", fmt.Errorf("--password-file %s: over %d KB, which is no passphrase", path, maxPassphraseFile>>10)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	line, _, _ := bytes.Cut(b, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if len(line) == 0 {
		return "", fmt.Errorf("--password-file %s: its first line is empty; it should hold the passphrase", path)
	}
	pass, err := page.CheckPassphrase(string(line))
	if err != nil {
		return "", fmt.Errorf("--password-file %s: %w", path, err)
	}
	return pass, nil
}

// passwordFileError says why the --password-file path could not be
// read, as a missing input is said: the file and the cause, without the
// system's call ("open", "read").
func passwordFileError(path string, err error) error {
	err = inputError(path, err)
	var pe *fs.PathError
	if _, plain := err.(*plainError); !plain && errors.As(err, &pe) {
		err = &plainError{path + ": " + pe.Err.Error(), err}
	}
	return fmt.Errorf("--password-file %w", err)
}

// askPassphrase asks for the passphrase on the terminal, twice, without
// echo.
func askPassphrase(u *ui) (string, error) {
	fd := int(os.Stdin.Fd())
	read := func(prompt string) (string, error) {
		fmt.Fprint(u.err, prompt)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(u.err)
		if err != nil {
			return "", fmt.Errorf("reading the passphrase: %w", err)
		}
		return string(b), nil
	}
	first, err := read("Passphrase for the page: ")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(first) == "" {
		return "", errors.New("no passphrase given; the page was not written")
	}
	again, err := read("The same passphrase again: ")
	if err != nil {
		return "", err
	}
	if again != first {
		return "", errors.New("the two passphrases differ; the page was not written")
	}
	return page.CheckPassphrase(first)
}
