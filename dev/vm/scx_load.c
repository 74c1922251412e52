/* Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
 *
 * A hackbench-like load for dev/test-vm: GROUPS groups of SENDERS sender
 * and SENDERS receiver processes; each sender writes LOOPS 100-byte
 * messages to every receiver of its group through a pipe, and each
 * receiver reads them all. Every wake-up of a blocked reader or writer is a
 * placement. Exits 0 when every message arrived, and prints the time.
 *
 *   scx_load [GROUPS] [SENDERS] [LOOPS]     (default 2 4 200)
 *   scx_load --sleeper COUNT USEC          one process that sleeps USEC
 *                                          COUNT times (a timer wake-up
 *                                          each time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG 100

static int receiver(int fd, long expect) {
  char buf[MSG];
  long got = 0;
  while (got < expect * MSG) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) return 1;
    got += n;
  }
  return 0;
}

static int sender(int *fds, int n, int loops) {
  char buf[MSG];
  memset(buf, 's', sizeof(buf));
  for (int l = 0; l < loops; l++)
    for (int r = 0; r < n; r++)
      if (write(fds[r], buf, MSG) != MSG) return 1;
  return 0;
}

static int sleeper(int count, long usec) {
  struct timespec ts = {usec / 1000000, (usec % 1000000) * 1000};
  for (int i = 0; i < count; i++) nanosleep(&ts, NULL);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--sleeper") == 0)
    return sleeper(atoi(argv[2]), atol(argv[3]));
  int groups = argc > 1 ? atoi(argv[1]) : 2;
  int senders = argc > 2 ? atoi(argv[2]) : 4;
  int loops = argc > 3 ? atoi(argv[3]) : 200;
  struct timespec t0, t1;
  int failed = 0, children = 0;
  if (groups < 1 || senders < 1 || senders > 64 || loops < 1) {
    fprintf(stderr, "usage: scx_load [GROUPS] [SENDERS<=64] [LOOPS]\n");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int g = 0; g < groups; g++) {
    int wfds[64];
    for (int r = 0; r < senders; r++) {
      int p[2];
      if (pipe(p)) { perror("pipe"); return 1; }
      pid_t pid = fork();
      if (pid < 0) { perror("fork"); return 1; }
      if (pid == 0) {
        close(p[1]);
        _exit(receiver(p[0], (long)senders * loops));
      }
      children++;
      close(p[0]);
      wfds[r] = p[1];
    }
    for (int s = 0; s < senders; s++) {
      pid_t pid = fork();
      if (pid < 0) { perror("fork"); return 1; }
      if (pid == 0) _exit(sender(wfds, senders, loops));
      children++;
    }
    for (int r = 0; r < senders; r++) close(wfds[r]);
  }
  for (int i = 0; i < children; i++) {
    int status;
    if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
      failed++;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("scx_load: %d groups x %d senders x %d loops: %d processes, %d "
         "failed, %.3f s\n",
         groups, senders, loops, children, failed,
         (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  return failed ? 1 : 0;
}
