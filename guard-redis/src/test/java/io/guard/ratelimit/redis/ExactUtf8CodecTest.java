package io.guard.ratelimit.redis;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ExactUtf8CodecTest {

    /** ASCII, 2-, 3- and 4-byte characters, an unpaired surrogate, a key as Guard writes it, empty. */
    @ParameterizedTest
    @ValueSource(strings = {"guard:{orders:user-42}:log", "Grüße", "限流键", "\uD83D\uDE80 rocket", "lone \uD800 half",
            "1733011200000000", ""})
    void sendsTheBytesOfLettucesUtf8CodecAndTellsTheirExactLength(String text) {
        ExactUtf8Codec codec = ExactUtf8Codec.INSTANCE;
        ByteBuf written = Unpooled.buffer();
        codec.encodeValue(text, written);

        assertThat(codec.estimateSize(text)).isEqualTo(written.readableBytes());
        assertThat(bytes(written)).isEqualTo(bytes(Unpooled.wrappedBuffer(StringCodec.UTF8.encodeValue(text))));
        assertThat(codec.decodeValue(codec.encodeValue(text))).isEqualTo(StringCodec.UTF8.decodeValue(
                StringCodec.UTF8.encodeValue(text)));
    }

    /** The whole command as Lettuce writes it: the same bytes through either codec. */
    @ParameterizedTest
    @ValueSource(strings = {"plain", "Grüße", "\uD83D\uDE80", "lone \uD800 half"})
    void lettuceEncodesTheSameCommandArguments(String text) {
        ByteBuf exact = Unpooled.buffer();
        new CommandArgs<>(ExactUtf8Codec.INSTANCE).addKey(text).addValue(text).add(7).encode(exact);
        ByteBuf lettuce = Unpooled.buffer();
        new CommandArgs<>(StringCodec.UTF8).addKey(text).addValue(text).add(7).encode(lettuce);

        assertThat(exact.toString(StandardCharsets.ISO_8859_1)).isEqualTo(lettuce.toString(StandardCharsets.ISO_8859_1));
    }

    private static byte[] bytes(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.getBytes(buffer.readerIndex(), bytes);
        return bytes;
    }
}
