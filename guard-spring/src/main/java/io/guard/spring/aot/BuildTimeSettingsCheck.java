package io.guard.spring.aot;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aot.AotDetector;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.context.ApplicationListener;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * Says at start-up of an AOT-processed application which {@link BuildTimeSettings} the run time sets otherwise than
 * the build did: Spring AOT decided those conditions when it processed the application, so the new value is ignored,
 * and without this a {@code -Dguard.observations.enabled=false} on the command line would be ignored in silence.
 * Registered in {@code META-INF/spring.factories}, so that it runs even when the build turned Guard off.
 */
class BuildTimeSettingsCheck implements ApplicationListener<ApplicationPreparedEvent> {

    private static final Log log = LogFactory.getLog(BuildTimeSettingsCheck.class);

    @Override
    public void onApplicationEvent(ApplicationPreparedEvent event) {
        if (!AotDetector.useGeneratedArtifacts()) {
            return;
        }
        ClassLoader classLoader = event.getSpringApplication().getClassLoader();
        Properties recorded = recorded(classLoader);
        if (recorded != null) {
            warn(BuildTimeSettings.differences(recorded, event.getApplicationContext().getEnvironment()));
        }
    }

    static void warn(List<String> differences) {
        for (String difference : differences) {
            log.warn(difference + ". Spring AOT fixed the beans this setting decides; give it this value at build time "
                    + "(application properties or the process-aot goal's arguments) and build again.");
        }
    }

    /** The values the build recorded, or null when the application was processed without Guard's processor. */
    static Properties recorded(ClassLoader classLoader) {
        try (InputStream in = classLoader.getResourceAsStream(BuildTimeSettings.RESOURCE)) {
            if (in == null) {
                return null;
            }
            Properties values = new Properties();
            values.load(in);
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
