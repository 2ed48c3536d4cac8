package io.sediment.om.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.GetVolumeResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * While no replica leads, a client keeps asking at most a backoff ceiling apart, so it learns of
 * a new leader soon after the election: with the default options, the waits between tries stop
 * growing at 250 ms.
 */
class OmClientBackoffTest {

  @Test
  void withoutALeaderTheDefaultClientRetriesAtMostAQuarterSecondApart() throws Exception {
    List<Long> tries = Collections.synchronizedList(new ArrayList<>());
    Server server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
        .addService(new OmServiceGrpc.OmServiceImplBase() {
          @Override
          public void createVolume(CreateVolumeRequest request,
              StreamObserver<CreateVolumeResponse> answer) {
            tries.add(System.nanoTime());
            // An election running: unavailable, and no leader to name.
            answer.onError(Status.UNAVAILABLE.withDescription("no leader").asRuntimeException());
          }

          @Override
          public void getVolume(GetVolumeRequest request,
              StreamObserver<GetVolumeResponse> answer) {
            answer.onNext(GetVolumeResponse.getDefaultInstance());
            answer.onCompleted();
          }
        }).build().start();
    String outcome;
    try (OmClient client = OmClient.connect(List.of("127.0.0.1:" + server.getPort()),
        OmClient.Options.defaults().withCallTimeout(Duration.ofSeconds(4)))) {
      // Connected first, so that the tries below are the backoff's alone.
      client.call(OmServiceGrpc.getGetVolumeMethod(), GetVolumeRequest.getDefaultInstance());
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> client.call(OmServiceGrpc.getCreateVolumeMethod(),
              CreateVolumeRequest.newBuilder().setVolume("v").setOwner("o").build()));
      assertTrue(e.getStatus().getCode() == Status.Code.UNAVAILABLE
          || e.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED, e.getStatus().toString());
      outcome = e.getStatus().toString();
    } finally {
      server.shutdownNow().awaitTermination();
    }
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < tries.size(); i++) {
      gaps.add((tries.get(i) - tries.get(i - 1)) / 1_000_000);
    }
    // 50, 100, 200, then 250 ms ceilings, each drawn from [half, all]: a 1 s ceiling would give
    // fewer than 8 tries in 4 s and waits of 500 ms and more.
    assertTrue(tries.size() >= 12, "tries in 4 s: " + tries.size() + ", waits " + gaps
        + ", ended " + outcome);
    List<Long> late = new ArrayList<>(gaps.subList(4, gaps.size()));
    Collections.sort(late);
    assertTrue(late.get(late.size() / 2) < 400, "median wait once at the ceiling: " + gaps);
  }
}
