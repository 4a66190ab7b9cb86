/* The pidfd system calls' numbers where the C library's headers lack them: the same on
 * every architecture (the syscall table unified from 424 up) */
#ifndef MEMTOP_PIDFD_SYS_H
#define MEMTOP_PIDFD_SYS_H

#include <sys/syscall.h>

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

#endif
