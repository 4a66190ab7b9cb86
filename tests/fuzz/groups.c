/* libFuzzer harness for the --groups rules parser (src/prefs/grouprules.c): the input is
 * a rules file's text, parsed from a buffer of its own size (so that a read past its end
 * is ASan's), then freed. `make fuzz` builds it with ASan and UBSan and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grouprules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct group_rules g;
	char err[600], *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = '\0';
	if (!group_rules_parse(&g, text, "fuzz.yaml", err, sizeof(err)))
		group_rules_free(&g);
	free(text);
	return 0;
}
