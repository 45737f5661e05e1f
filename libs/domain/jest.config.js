export default { displayName: '@workcell/domain', preset: '../../jest.preset.js' };
