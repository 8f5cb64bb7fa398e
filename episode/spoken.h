/*
 * Spoken forms: how numbers, dates, lists and durations are said aloud.
 * Each appends to a buf. No libevent, no jansson.
 */
#ifndef HOOKCAST_SPOKEN_H
#define HOOKCAST_SPOKEN_H

#include "buf.h"

/* 0 -> "zero", 30 -> "thirty", 1204 -> "one thousand two hundred four". */
void	 spoken_number(struct buf *, long long);
/* 1 -> "first", 9 -> "ninth", 23 -> "twenty-third". */
void	 spoken_ordinal_word(struct buf *, long long);
/* 4 -> "4th", 22 -> "22nd", 11 -> "11th". */
void	 spoken_ordinal_digits(struct buf *, long long);
/* (2026, 4, 4) -> "April 4th, 2026". month 1..12. */
void	 spoken_date(struct buf *, int year, int month, int mday);
/*
 * An earlier date said from today (a date_daynum, in today_year):
 * "earlier today" or "yesterday" (returns 0), the weekday within the last
 * six days ("Monday") or else "March 3rd" ("March 3rd, 2025" in another
 * year) (returns 1: the words take "on"); -1 and nothing appended for a
 * date after today or one that isn't a date.
 */
int	 spoken_past_day(struct buf *, int year, int month, int mday,
	    long today, int today_year);
/* n and the noun, singular or plural: (3, "commit", "commits") -> "three commits". */
void	 spoken_count(struct buf *, long long, const char *one, const char *many);
/* {"A","B","C"} -> "A, B and C"; {"A","B"} -> "A and B". */
void	 spoken_list(struct buf *, const char *const *items, size_t n);
/* Append n and the noun, capitalised: (3, "fix", "fixes") -> "Three fixes". */
void	 spoken_count_cap(struct buf *, long long n, const char *one,
	    const char *many);
/*
 * The words a voice says for s: each blank-separated word, with an
 * identifier counted by its parts ("Int8DynamicAct" is five: Int, 8,
 * Dynamic, Act; "read_timeout" two). What a duration is estimated from.
 */
size_t	 spoken_said_words(const char *);
/*
 * Make s spoken text, in place (it never grows): what a voice, a subtitle
 * or a chat line may carry, with no markup and no control characters.
 * Every text an episode says passes here once (episode_finish), whatever
 * drafted it; each output then escapes it for its own format (render.c,
 * feed.c). Controls, escape sequences and bad UTF-8 go as record_clean
 * takes them (lines kept). Then:
 *  - an HTML tag becomes its bare name, set off from words by spaces:
 *    "Use <details> here" -> "Use details here", "Option<T>" -> "Option
 *    T", "</title><script>" -> "title script"; attributes are dropped, a
 *    comment, "<!doctype>" or "<?pi?>" goes whole, and any other '<'
 *    before a letter, '/', '!' or '?' (a tag never closed on its line,
 *    "<`b>") goes alone. So no tag can start anywhere; "a < b" and
 *    "x <= y" stay.
 *  - a Markdown link or image, "[text](url)", becomes its text;
 *  - backticks go ("`foo` fails" -> "foo fails");
 *  - a voice's markup goes, so the audio says what the transcript
 *    shows: an entity is said as its character ("&amp;" is "&", "&lt;"
 *    "<"; any other goes), espeak's phonemes "[[h@'loU]]" go whole (a
 *    "[[" or "]]" left is one bracket), and an SSML tag ("<break/>",
 *    "<prosody rate='x'>", "<amazon:effect>") goes without its name;
 *  - a link goes, as text_link_len finds one ("bit.ly/x", "host:8080",
 *    "https://...", an e-mail address): spoken text never holds one;
 *  - runs of spaces fold into one; lines lose their end spaces, and the
 *    text its trailing blank lines.
 * Brackets that are not a link ("[Reland]") stay. Idempotent.
 */
void	 spoken_clean(char *);
/*
 * s with its symbols said by their words (new), for a voice that would
 * otherwise read "underscore", "dot" and "open paren": snake_case and
 * dotted or "::" paths by their parts ("import.meta.hot.invalidate()" is
 * "import meta hot invalidate", "Codec::encode" "Codec encode"), a
 * camelCase name by its words ("jsxSideEffects" is "jsx side
 * effects"),
 * a CamelCase one of three words or more by its words ("LowBitPacking"
 * is "Low Bit Packing"), "test_x" as "the x test", a file name with
 * words in it by its words ("uintx_utils.py" is "uintx utils"). Kept as
 * they are: names a listener knows ("PyTorch", "iOS", "Node.js"), files
 * of one word ("AUTHORS.rst"), versions, domains, "e.g.". What a setting
 * must be typed as is quoted elsewhere (Today's Focus).
 */
char	*spoken_symbols(const char *);
/*
 * s with each word's "{a,b,c}" said as its words (new): "--{header,
 * footer}-border" is "--header-border and --footer-border"; any other
 * brace goes ("{ $__loc__ }" is "$__loc__"). Braces a voice would read
 * aloud, and spoken_clean leaves, go.
 */
char	*spoken_braces(const char *);
/* 261 -> "PT4M21S"; 0 -> "PT0S"; 3600 -> "PT1H". */
void	 iso_duration(struct buf *, long seconds);

#endif
