package dev.flipper.workflow.master.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.flipper.workflow.master.thrift.ModifyRequest;
import dev.flipper.workflow.master.thrift.ModifyResponse;
import dev.flipper.workflow.master.thrift.Token;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.net.InetAddress;
import org.apache.thrift.TException;

/**
 * Writes the address of the connection into every worker heartbeat ({@code /worker/...}) it writes,
 * as the {@code publisher} field of its JSON data, over whatever the request said: readers fetch a
 * worker's logs from that address (docs/tokens.md), never from a host a token names, so a forged
 * heartbeat cannot point the UI at another server. Data that is not a JSON object is left alone (it
 * gets no address, so no logs are fetched for it). Used by the connection's thread.
 */
final class PublisherStamp extends ForwardingCalls {
  /** The field, as workflow-engine's heartbeat data names it. */
  static final String PUBLISHER = "publisher";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String publisher;

  PublisherStamp(TokenMasterService.Iface target, InetAddress publisher) {
    super(target);
    this.publisher = publisher.getHostAddress();
  }

  @Override
  public ModifyResponse modify(ModifyRequest request) throws TException {
    if (request != null && request.getUpdates() != null) {
      for (Token token : request.getUpdates()) {
        if (token != null
            && token.getName() != null
            && token.getName().startsWith(MasterPermissions.WORKERS)) {
          token.setData(stamped(token.getData()));
        }
      }
    }
    return target.modify(request);
  }

  private String stamped(String data) {
    try {
      JsonNode parsed = data == null ? JSON.createObjectNode() : JSON.readTree(data);
      if (parsed instanceof ObjectNode heartbeat) {
        heartbeat.put(PUBLISHER, publisher);
        return JSON.writeValueAsString(heartbeat);
      }
    } catch (JsonProcessingException notJson) {
      // left alone: readers find no publisher in it
    }
    return data;
  }
}
