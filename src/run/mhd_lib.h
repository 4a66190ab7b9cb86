/* libmicrohttpd, opened when memtop serves (--serve), not linked: the library and the TLS
 * stack it brings (gnutls, p11-kit, nettle, gmp...) run their initialisers at load and kept
 * about 2.5 MB resident in every memtop, the screen and -b included. Include it after
 * <microhttpd.h>: the MHD_ functions memtop calls are then the library's, through mhd. */
#ifndef MEMTOP_MHD_LIB_H
#define MEMTOP_MHD_LIB_H

#include <microhttpd.h>
#include <stddef.h>

#ifndef MHD_SONAME
#define MHD_SONAME "libmicrohttpd.so.12"
#endif

#define MHD_FUNCS(X)                                                                               \
	X(add_response_header)                                                                     \
	X(basic_auth_get_username_password)                                                        \
	X(create_response_from_buffer)                                                             \
	X(create_response_from_buffer_with_free_callback_cls)                                      \
	X(destroy_response)                                                                        \
	X(free)                                                                                    \
	X(get_connection_info)                                                                     \
	X(is_feature_supported)                                                                    \
	X(lookup_connection_value)                                                                 \
	X(queue_basic_auth_fail_response)                                                          \
	X(queue_response)                                                                          \
	X(resume_connection)                                                                       \
	X(start_daemon)                                                                            \
	X(stop_daemon)                                                                             \
	X(suspend_connection)

struct mhd_lib {
#define MHD_POINTER(f) __typeof__(&MHD_##f) f;
	MHD_FUNCS(MHD_POINTER)
#undef MHD_POINTER
};
extern struct mhd_lib mhd;

/* Opens the library and finds its functions, once; 0, or -1 with a one-line error */
int mhd_open(char *err, size_t errlen);

#define MHD_add_response_header		     mhd.add_response_header
#define MHD_basic_auth_get_username_password mhd.basic_auth_get_username_password
#define MHD_create_response_from_buffer	     mhd.create_response_from_buffer
#define MHD_create_response_from_buffer_with_free_callback_cls                                     \
	mhd.create_response_from_buffer_with_free_callback_cls
#define MHD_destroy_response		   mhd.destroy_response
#define MHD_free			   mhd.free
#define MHD_get_connection_info		   mhd.get_connection_info
#define MHD_is_feature_supported	   mhd.is_feature_supported
#define MHD_lookup_connection_value	   mhd.lookup_connection_value
#define MHD_queue_basic_auth_fail_response mhd.queue_basic_auth_fail_response
#define MHD_queue_response		   mhd.queue_response
#define MHD_resume_connection		   mhd.resume_connection
#define MHD_start_daemon		   mhd.start_daemon
#define MHD_stop_daemon			   mhd.stop_daemon
#define MHD_suspend_connection		   mhd.suspend_connection

#endif
