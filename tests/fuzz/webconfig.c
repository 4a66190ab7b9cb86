/* libFuzzer harness for --web-config's parser (web_config_parse, src/run/webconfig.c): the
 * input is the file's text; the files it names are not read. `make fuzz` builds it with
 * ASan and UBSan and runs it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "webconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct web_config w;
	char *text = malloc(size + 1), *cert = NULL, *key = NULL, err[1024];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&w, 0, sizeof(w));
	pthread_mutex_init(&w.lock, NULL);
	if (!web_config_parse(&w, text, "fuzz.yml", &cert, &key, err, sizeof(err)) && w.nusers)
		(void)web_config_known(&w, w.users[0].name, "x");
	free(text);
	free(cert);
	free(key);
	web_config_free(&w);
	return 0;
}
