/* Reaches a Unix socket without socket(2), the ways a seccomp filter on socket() alone misses:
 * `uring PATH MSG` makes and connects a stream socket with io_uring (IORING_OP_SOCKET, _CONNECT);
 * `dgram PATH MSG` sends from one end of a socketpair(SOCK_DGRAM) to a datagram socket's path;
 * `dgram-recv PATH` is the receiving end, run outside the sandbox. Compiled by the sandbox tests
 * when a C compiler is present; harmless (it only talks to sockets the test creates). */
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>

static int uring_connect(const char *where, const char *msg) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  int ring = (int)syscall(__NR_io_uring_setup, 4, &p);
  if (ring < 0) { perror("io_uring_setup"); return 2; }
  char *sq = mmap(0, p.sq_off.array + p.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
  char *cq = mmap(0, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_CQ_RING);
  struct io_uring_sqe *sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
  if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) { perror("mmap"); return 2; }
  unsigned *tail = (unsigned *)(sq + p.sq_off.tail), *mask = (unsigned *)(sq + p.sq_off.ring_mask), *array = (unsigned *)(sq + p.sq_off.array);
  unsigned *chead = (unsigned *)(cq + p.cq_off.head), *cmask = (unsigned *)(cq + p.cq_off.ring_mask);
  struct io_uring_cqe *cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
  struct sockaddr_un sun;
  memset(&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  strncpy(sun.sun_path, where, sizeof sun.sun_path - 1);
  int fd = -1;
  for (int step = 0; step < 2; step++) {
    unsigned i = *tail & *mask;
    memset(&sqes[i], 0, sizeof sqes[i]);
    if (step == 0) { sqes[i].opcode = IORING_OP_SOCKET; sqes[i].fd = AF_UNIX; sqes[i].off = SOCK_STREAM; }
    else { sqes[i].opcode = IORING_OP_CONNECT; sqes[i].fd = fd; sqes[i].addr = (unsigned long)&sun; sqes[i].off = sizeof sun; }
    array[i] = i;
    __atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
    if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0) { perror("io_uring_enter"); return 2; }
    unsigned h = __atomic_load_n(chead, __ATOMIC_ACQUIRE);
    int res = cqes[h & *cmask].res;
    __atomic_store_n(chead, h + 1, __ATOMIC_RELEASE);
    if (res < 0) { fprintf(stderr, "%s: %s\n", step == 0 ? "socket" : "connect", strerror(-res)); return 3; }
    if (step == 0) fd = res;
  }
  if (write(fd, msg, strlen(msg)) < 0) { perror("write"); return 4; }
  printf("connected\n");
  return 0;
}

static int dgram_send(const char *where, const char *msg) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) < 0) { perror("socketpair"); return 2; }
  struct sockaddr_un sun;
  memset(&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  strncpy(sun.sun_path, where, sizeof sun.sun_path - 1);
  if (sendto(pair[0], msg, strlen(msg), 0, (struct sockaddr *)&sun, sizeof sun) < 0) { perror("sendto"); return 3; }
  printf("sent\n");
  return 0;
}

/* Receives one datagram on a socket bound at PATH (up to 10 s), prints it. */
static int dgram_recv(const char *where) {
  int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
  struct sockaddr_un sun;
  memset(&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  strncpy(sun.sun_path, where, sizeof sun.sun_path - 1);
  if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof sun) < 0) { perror("bind"); return 2; }
  struct timeval tv = {10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  char buf[256];
  ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
  if (n < 0) { perror("recv"); return 3; }
  buf[n] = 0;
  printf("got %s\n", buf);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "dgram-recv") == 0) return dgram_recv(argv[2]);
  if (argc != 4) { fprintf(stderr, "usage: probe uring|dgram PATH MESSAGE | probe dgram-recv PATH\n"); return 64; }
  if (strcmp(argv[1], "uring") == 0) return uring_connect(argv[2], argv[3]);
  if (strcmp(argv[1], "dgram") == 0) return dgram_send(argv[2], argv[3]);
  return 64;
}
