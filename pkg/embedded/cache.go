package embedded

import "github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"

// Cache holds parsed documents by their text. It is not safe for
// concurrent use.
type Cache struct {
	docs map[string]*locate.Document
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{docs: map[string]*locate.Document{}} }

// cacheLimit bounds the memory a cache holds on to.
const cacheLimit = 1 << 16

// get returns the parse of text, nil when there is none (or no cache).
func (c *Cache) get(text string) *locate.Document {
	if c == nil {
		return nil
	}
	return c.docs[text]
}

// put keeps the parse of text, emptying the cache first when it is full.
func (c *Cache) put(text string, d *locate.Document) {
	if c == nil {
		return
	}
	if len(c.docs) >= cacheLimit {
		clear(c.docs)
	}
	c.docs[text] = d
}

// replace records that text became out: the old version will not be asked
// for again.
func (c *Cache) replace(text, out string, d *locate.Document) {
	if c == nil {
		return
	}
	delete(c.docs, text)
	c.put(out, d)
}
