/* idlekit test governors: the folder's own gov.h, as drivers/cpuidle/governors/ has one. */
#ifndef __IDLEKIT_TEST_GOVERNOR_H
#define __IDLEKIT_TEST_GOVERNOR_H

/* The unit the probe governor measures times in. */
#define PROBE_UNIT_NS	(1000 * NSEC_PER_USEC)

#endif
