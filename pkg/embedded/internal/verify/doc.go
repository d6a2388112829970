// Package verify is the safety net under the byte arithmetic of an edit:
// it parses the edited text again and compares it with the original.
// Every value must be as it was, except at the addresses edited, which
// must read back as package write's checks say. An edit that would change
// anything else is refused, never returned.
package verify
