/* --web-config's certificate and key checked at start with gnutls (the TLS stack
 * libmicrohttpd uses, opened with dlopen as memtop opens libmicrohttpd), so that a file
 * that is not a certificate, a key that is encrypted, not one, or not the certificate's
 * are each a reason naming the file, not libmicrohttpd's failure to start. */
#ifndef MEMTOP_TLS_CHECK_H
#define MEMTOP_TLS_CHECK_H

#include <stddef.h>

/* cert and key, the PEM text of the files named (escaped) cert_file and key_file: 0, or -1
 * with a one-line reason in err ("FILE: ...") */
int tls_check(const char *cert, const char *key, const char *cert_file, const char *key_file,
	      char *err, size_t errlen);

#endif
