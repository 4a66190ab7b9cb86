#include "tls_check.h"

#include <dlfcn.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <string.h>

#define GNUTLS_SONAME "libgnutls.so.30"

#define TLS_FUNCS(X)                                                                               \
	X(certificate_allocate_credentials)                                                        \
	X(certificate_free_credentials)                                                            \
	X(certificate_set_x509_key_mem)                                                            \
	X(strerror)                                                                                \
	X(x509_crt_deinit)                                                                         \
	X(x509_crt_import)                                                                         \
	X(x509_crt_init)                                                                           \
	X(x509_privkey_deinit)                                                                     \
	X(x509_privkey_import)                                                                     \
	X(x509_privkey_init)

struct gnutls_lib {
#define TLS_POINTER(f) __typeof__(&gnutls_##f) f;
	TLS_FUNCS(TLS_POINTER)
#undef TLS_POINTER
};

static int open_lib(struct gnutls_lib *g)
{
	void *h = dlopen(GNUTLS_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return -1;
#define TLS_FIND(f)                                                                                \
	if (!(*(void **)&g->f = dlsym(h, "gnutls_" #f))) {                                         \
		dlclose(h);                                                                        \
		return -1;                                                                         \
	}
	TLS_FUNCS(TLS_FIND)
#undef TLS_FIND
	return 0; /* kept open: libmicrohttpd has it open too */
}

static gnutls_datum_t datum(const char *pem)
{
	return (gnutls_datum_t){(unsigned char *)pem, (unsigned)strlen(pem)};
}

int tls_check(const char *cert, const char *key, const char *cert_file, const char *key_file,
	      char *err, size_t errlen)
{
	struct gnutls_lib g;
	gnutls_datum_t c = datum(cert), k = datum(key);

	if (open_lib(&g))
		return 0; /* libmicrohttpd's start says what it can */
	gnutls_x509_crt_t crt;
	int rc = g.x509_crt_init(&crt);
	if (!rc) {
		rc = g.x509_crt_import(crt, &c, GNUTLS_X509_FMT_PEM);
		g.x509_crt_deinit(crt);
	}
	if (rc) {
		snprintf(err, errlen, "cert_file %s: not a PEM certificate (%s)", cert_file,
			 g.strerror(rc));
		return -1;
	}
	if (strstr(key, "ENCRYPTED")) {
		snprintf(err, errlen,
			 "key_file %s: the key is encrypted (memtop takes a key without a "
			 "passphrase)",
			 key_file);
		return -1;
	}
	gnutls_x509_privkey_t pk;
	if (!(rc = g.x509_privkey_init(&pk))) {
		rc = g.x509_privkey_import(pk, &k, GNUTLS_X509_FMT_PEM);
		g.x509_privkey_deinit(pk);
	}
	if (rc) {
		snprintf(err, errlen, "key_file %s: not a PEM private key (%s)", key_file,
			 g.strerror(rc));
		return -1;
	}
	gnutls_certificate_credentials_t cred;
	if (!(rc = g.certificate_allocate_credentials(&cred))) {
		rc = g.certificate_set_x509_key_mem(cred, &c, &k, GNUTLS_X509_FMT_PEM);
		g.certificate_free_credentials(cred);
	}
	if (rc < 0) {
		snprintf(err, errlen, "key_file %s is not cert_file %s's key (%s)", key_file,
			 cert_file, g.strerror(rc));
		return -1;
	}
	return 0;
}
