package org.meterstore.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.meterstore.internal.embedded.LeftoverServer.Facts;
import org.meterstore.internal.embedded.LeftoverServer.Verdict;

class LeftoverServerTest {
  private static final Path CLUSTER = Path.of("/nonexistent/data/pg");
  private static final Instant STARTED = Instant.parse("2026-12-02T05:00:00Z");
  private static final PidFile FILE = new PidFile(4242, CLUSTER, STARTED);

  @Test
  void readsPidDirectoryAndStartFromAPostmasterPid() throws IOException {
    PidFile f =
        PidFile.parse(
            List.of("17942", "/tmp/d", "1796189007", "54999", "/tmp/d", "127.0.0.1", "", "ready"));
    assertThat(f.pid()).isEqualTo(17942);
    assertThat(f.dataDirectory()).isEqualTo(Path.of("/tmp/d"));
    assertThat(f.started()).isEqualTo(Instant.ofEpochSecond(1796189007));
  }

  @Test
  void refusesAHalfWrittenPidFile() {
    assertThatThrownBy(() -> PidFile.parse(List.of("17942"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> PidFile.parse(List.of("x", "/d", "1")))
        .isInstanceOf(IOException.class);
  }

  @Test
  void aProcessThatIsGoneLeftAStaleFile() {
    Facts dead = new Facts(false, Optional.empty(), Optional.empty());
    assertThat(LeftoverServer.judge(FILE, CLUSTER, dead)).isEqualTo(Verdict.GONE);
  }

  @Test
  void aFileForAnotherDirectoryIsNotThisClustersServer() {
    // the recorded directory does not exist here, so it is not CLUSTER's real path
    Facts postgres = new Facts(true, Optional.of("/x/bin/postgres"), Optional.of(STARTED));
    assertThat(LeftoverServer.judge(FILE, Path.of("/elsewhere"), postgres))
        .isEqualTo(Verdict.OTHER_PROCESS);
  }

  @Test
  void judgesTheProgramAndTheStartTimeOfALiveProcess() throws IOException {
    Path here = Path.of(".").toRealPath();
    PidFile file = new PidFile(4242, here, STARTED);
    assertThat(judge(file, here, "/tmp/embedded-pg/PG-1/bin/postgres", STARTED.plusSeconds(1)))
        .isEqualTo(Verdict.RUNNING);
    assertThat(judge(file, here, "/usr/bin/java", STARTED)).isEqualTo(Verdict.OTHER_PROCESS);
    assertThat(judge(file, here, "/x/bin/postgres", STARTED.plusSeconds(3600)))
        .as("a postgres that reused the pid later")
        .isEqualTo(Verdict.OTHER_PROCESS);
    assertThat(
            LeftoverServer.judge(file, here, new Facts(true, Optional.empty(), Optional.empty())))
        .isEqualTo(Verdict.UNIDENTIFIED);
  }

  private static Verdict judge(PidFile file, Path cluster, String command, Instant started) {
    return LeftoverServer.judge(
        file, cluster, new Facts(true, Optional.of(command), Optional.of(started)));
  }
}
