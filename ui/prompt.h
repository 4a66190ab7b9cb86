/* The bottom line's text prompt: editing and drawing. What the text means is the
 * main screen's business. */
#ifndef MEMTOP_PROMPT_H
#define MEMTOP_PROMPT_H

#include <stddef.h>
#include <wchar.h>

#include "screen.h"

enum prompt_result {
	PROMPT_IGNORED, /* a key the prompt does not take */
	PROMPT_EDITED,	/* the text changed */
	PROMPT_CANCEL,	/* Esc: closed */
	PROMPT_COMMIT,	/* Enter: closed, the text stands */
	PROMPT_NEXT,	/* F3: the next match (search) */
};

/* The prompt's keys, for the help */
extern const struct binding prompt_bindings[];

void prompt_open(struct prompt *p, enum prompt_kind kind, const char *initial);
enum prompt_result prompt_edit(struct prompt *p, wint_t ch, bool is_key);
/* The text typed, as UTF-8 */
void prompt_text(const struct prompt *p, char *out, size_t size);
/* Title and text on line y, with the cursor after it */
void prompt_draw(const struct canvas *cv, const struct prompt *p, int y);

#endif
