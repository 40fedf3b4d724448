package kafkatools

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnclosedQuote means a line opened a quote it did not close.
var ErrUnclosedQuote = errors.New("unclosed quote")

// SplitLine splits a line into words as a POSIX shell does,
// without expanding anything: blanks separate words; 'single quotes' keep
// everything up to the next single quote; "double quotes" keep everything
// up to the next unescaped double quote, a backslash there escaping only
// $, `, " and \ (and removing a newline after it); outside quotes a
// backslash keeps the next character as it is (a newline after it is
// removed), and a backslash that ends the line stays a backslash. A pair
// of quotes with nothing between them is an empty word. An unclosed quote
// is ErrUnclosedQuote, wrapped with where it opened.
func SplitLine(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			switch {
			case i+1 == len(line):
				w.WriteByte('\\')
			case line[i+1] == '\n':
				i++
			default:
				i++
				w.WriteByte(line[i])
			}
		case c == '\'':
			inWord = true
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("%w: the ' at column %d is never closed", ErrUnclosedQuote, i+1)
			}
			w.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord = true
			open := i
			for i++; ; i++ {
				if i == len(line) {
					return nil, fmt.Errorf("%w: the \" at column %d is never closed", ErrUnclosedQuote, open+1)
				}
				d := line[i]
				if d == '"' {
					break
				}
				if d == '\\' && i+1 < len(line) {
					switch line[i+1] {
					case '$', '`', '"', '\\':
						i++
						d = line[i]
					case '\n':
						i++
						continue
					}
				}
				w.WriteByte(d)
			}
		default:
			inWord = true
			w.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// quoteWord quotes a word for SplitLine (and a shell): as it is when it
// holds only characters no shell treats specially, else in single quotes.
func quoteWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// JoinWords is the line of words for SplitLine, each quoted only if it
// must be: the normal form of a terminal line.
func JoinWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = quoteWord(w)
	}
	return strings.Join(q, " ")
}

// NormalLine is line in its normal form (JoinWords of its words), or line
// trimmed when it does not split.
func NormalLine(line string) string {
	words, err := SplitLine(line)
	if err != nil {
		return strings.TrimSpace(line)
	}
	return JoinWords(words)
}
